package gpu

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"gpuwiz/steps/i18n"
)

// commandRunner runs a program and returns its stdout; an error carries its output in plain words.
type commandRunner func(ctx context.Context, name string, args ...string) ([]byte, error)

const (
	smiQueryFields  = "index,name,uuid,driver_version,memory.total,memory.used,utilization.gpu,temperature.gpu,power.draw,clocks.sm,pci.bus_id"
	smiSampleFields = "index,utilization.gpu,memory.used,memory.total,temperature.gpu,power.draw,clocks.sm"
	smiAppsFields   = "pid,process_name,used_memory,gpu_uuid"
	smiProbeTimeout = 10 * time.Second // a wedged driver can make nvidia-smi hang; never wait forever
	smiSampleTimout = 3 * time.Second
)

// smiProber is the fallback: nvidia-smi's CSV queries and its banner for the CUDA version.
type smiProber struct {
	run   commandRunner
	path  string // "" until found
	noCap bool   // this nvidia-smi rejects compute_cap
}

func newSMIProber(run commandRunner) *smiProber { return &smiProber{run: run} }

// findSMI looks on PATH, then where Windows drivers put it.
func findSMI() (string, error) {
	if p, err := exec.LookPath("nvidia-smi"); err == nil {
		return p, nil
	}
	if runtime.GOOS == "windows" {
		var dirs []string
		if root := os.Getenv("SystemRoot"); root != "" {
			dirs = append(dirs, filepath.Join(root, "System32"))
		}
		if pf := os.Getenv("ProgramW6432"); pf != "" {
			dirs = append(dirs, filepath.Join(pf, "NVIDIA Corporation", "NVSMI"))
		}
		for _, d := range dirs {
			p := filepath.Join(d, "nvidia-smi.exe")
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
	}
	return "", errors.New(i18n.T("gpu.smi.not_found"))
}

func (p *smiProber) resolve() error {
	if p.path != "" {
		return nil
	}
	path, err := findSMI()
	if err != nil {
		return err
	}
	p.path = path
	return nil
}

func (p *smiProber) query(ctx context.Context, timeout time.Duration, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := p.run(ctx, p.path, args...)
	if ctx.Err() == context.DeadlineExceeded {
		return nil, errors.New(i18n.T("gpu.smi.timeout", i18n.D{"Timeout": timeout}))
	}
	return out, err
}

func (p *smiProber) Probe(ctx context.Context) (Report, error) {
	begin := time.Now()
	if err := p.resolve(); err != nil {
		return Report{Backend: "nvidia-smi"}, err
	}
	var warn warnings
	fields := smiQueryFields + ",compute_cap"
	if p.noCap {
		fields = smiQueryFields
	}
	out, err := p.query(ctx, smiProbeTimeout, "--query-gpu="+fields, "--format=csv,noheader,nounits")
	if err != nil && !p.noCap && strings.Contains(err.Error(), "compute_cap") {
		p.noCap = true // drivers before 510 do not know the field
		fields = smiQueryFields
		out, err = p.query(ctx, smiProbeTimeout, "--query-gpu="+fields, "--format=csv,noheader,nounits")
	}
	if err != nil {
		return Report{Backend: "nvidia-smi"}, err
	}
	initDone := time.Now()
	if p.noCap {
		warn.add(i18n.T("gpu.smi.no_compute_cap"))
	}
	gpus, driver, err := parseSMIGPUs(out, strings.Split(fields, ","), &warn, readingsWanted(ctx))
	if err != nil {
		return Report{Backend: "nvidia-smi"}, err
	}
	r := Report{Available: true, Backend: "nvidia-smi", DriverVersion: driver, GPUs: gpus}
	if banner, err := p.query(ctx, smiProbeTimeout); err == nil {
		r.CUDAMax = parseSMIBannerCUDA(banner)
	}
	if r.CUDAMax == "" {
		warn.add(i18n.T("gpu.smi.no_cuda_version"))
	}
	if apps, err := p.query(ctx, smiProbeTimeout, "--query-compute-apps="+smiAppsFields, "--format=csv,noheader,nounits"); err == nil {
		attachSMIApps(r.GPUs, parseSMIApps(apps))
	} else {
		warn.add(i18n.T("gpu.smi.no_processes", i18n.D{"Err": err}))
	}
	r.Warnings = append(warn.list, cardWarnings(r)...)
	r.Message = availableMessage(r)
	r.Timings = &Timings{InitMS: ms(initDone.Sub(begin)), ProbeMS: ms(time.Since(begin))}
	return r, nil
}

// Sample is one nvidia-smi call for the vitals and one for the processes (each a process start;
// see docs/benchmarks.md for what that costs).
func (p *smiProber) Sample(ctx context.Context) ([]Sample, error) {
	if err := p.resolve(); err != nil {
		return nil, err
	}
	out, err := p.query(ctx, smiSampleTimout, "--query-gpu="+smiSampleFields+",uuid", "--format=csv,noheader,nounits")
	if err != nil {
		return nil, err
	}
	rows, err := readCSV(out)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	var apps []smiApp
	if a, err := p.query(ctx, smiSampleTimout, "--query-compute-apps="+smiAppsFields, "--format=csv,noheader,nounits"); err == nil {
		apps = parseSMIApps(a)
	}
	samples := make([]Sample, 0, len(rows))
	for _, row := range rows {
		if len(row) < 8 {
			continue
		}
		f := func(i int) float64 { v, _ := smiNumber(row[i]); return deref(v) }
		idx, _ := strconv.Atoi(row[0])
		s := Sample{Time: now, Index: idx, UtilizationPct: f(1), MemoryUsedMiB: uint64(f(2)), MemoryTotalMiB: uint64(f(3)),
			TemperatureC: f(4), PowerW: f(5), SMClockMHz: f(6)}
		for _, a := range apps {
			if a.uuid == row[7] {
				s.Processes = append(s.Processes, a.proc)
			}
		}
		samples = append(samples, s)
	}
	return samples, nil
}

func readCSV(out []byte) ([][]string, error) {
	r := csv.NewReader(bytes.NewReader(out))
	r.TrimLeadingSpace = true
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", i18n.T("gpu.smi.not_csv"), err)
	}
	return rows, nil
}

// smiNumber parses a CSV value; "[N/A]", "[Not Supported]", "N/A" and friends are nil.
func smiNumber(s string) (*float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasPrefix(s, "[") || strings.EqualFold(s, "N/A") {
		return nil, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, false
	}
	return &v, true
}

func smiText(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") || strings.EqualFold(s, "N/A") {
		return ""
	}
	return s
}

// parseSMIGPUs reads --query-gpu rows in the order of fields.
func parseSMIGPUs(out []byte, fields []string, warn *warnings, readings bool) ([]GPU, string, error) {
	rows, err := readCSV(out)
	if err != nil {
		return nil, "", err
	}
	col := map[string]int{}
	for i, f := range fields {
		col[f] = i
	}
	gpus := []GPU{}
	driver := ""
	for _, row := range rows {
		if len(row) != len(fields) {
			return nil, "", errors.New(i18n.T("gpu.smi.field_count", i18n.D{"Values": len(row), "Fields": len(fields), "Row": strconv.Quote(strings.Join(row, ", "))}))
		}
		get := func(f string) string { return row[col[f]] }
		idx, err := strconv.Atoi(strings.TrimSpace(get("index")))
		if err != nil {
			return nil, "", errors.New(i18n.T("gpu.smi.bad_index", i18n.D{"Index": strconv.Quote(get("index"))}))
		}
		g := GPU{Index: idx, Name: smiText(get("name")), UUID: smiText(get("uuid")), PCIBusID: smiText(get("pci.bus_id")), Processes: []Process{}}
		if driver == "" {
			driver = smiText(get("driver_version"))
		}
		// num reads field f; missing says in words that it did not come (given what nvidia-smi printed).
		num := func(f string, missing func(got string) string) *float64 {
			v, ok := smiNumber(get(f))
			if !ok {
				warn.add(missing(strings.TrimSpace(get(f))))
			}
			return v
		}
		g.MemoryTotalMiB = uint64(deref(num("memory.total", func(got string) string {
			return i18n.T("gpu.missing.memory_total", i18n.D{"Index": idx, "Err": got})
		})))
		g.MemoryUsedMiB = uint64(deref(num("memory.used", func(got string) string {
			return i18n.T("gpu.missing.memory_used", i18n.D{"Index": idx, "Err": got})
		})))
		if !readings { // left out on request: nothing to say about them
			num = func(string, func(string) string) *float64 { return nil }
		}
		g.UtilizationPct = num("utilization.gpu", func(got string) string {
			return i18n.T("gpu.missing.utilisation", i18n.D{"Index": idx, "Err": got})
		})
		g.TemperatureC = num("temperature.gpu", func(got string) string {
			return i18n.T("gpu.missing.temperature", i18n.D{"Index": idx, "Err": got})
		})
		g.PowerW = num("power.draw", func(got string) string {
			return i18n.T("gpu.missing.power", i18n.D{"Index": idx, "Err": got})
		})
		g.SMClockMHz = num("clocks.sm", func(got string) string {
			return i18n.T("gpu.missing.sm_clock", i18n.D{"Index": idx, "Err": got})
		})
		if _, ok := col["compute_cap"]; ok {
			g.ComputeCapability = smiText(get("compute_cap"))
		}
		gpus = append(gpus, g)
	}
	if len(gpus) == 0 {
		return nil, "", errors.New(i18n.T("gpu.smi.no_gpu"))
	}
	return gpus, driver, nil
}

var smiCUDARe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`CUDA (?:UMD )?Version:\s*([0-9]+\.[0-9]+)`) })

// parseSMIBannerCUDA finds "CUDA Version: 13.0" (drivers before 610) or "CUDA UMD Version: 13.3" (610+).
func parseSMIBannerCUDA(banner []byte) string {
	m := smiCUDARe().FindSubmatch(banner)
	if m == nil {
		return ""
	}
	return string(m[1])
}

type smiApp struct {
	uuid string
	proc Process
}

func parseSMIApps(out []byte) []smiApp {
	rows, err := readCSV(out)
	if err != nil {
		return nil
	}
	var apps []smiApp
	for _, row := range rows {
		if len(row) != 4 {
			continue // "No running processes found" and other prose
		}
		pid, err := strconv.Atoi(strings.TrimSpace(row[0]))
		if err != nil {
			continue
		}
		p := Process{PID: pid, Name: smiText(row[1])}
		if v, ok := smiNumber(row[2]); ok {
			mib := uint64(*v)
			p.UsedMemoryMiB = &mib
		}
		apps = append(apps, smiApp{uuid: strings.TrimSpace(row[3]), proc: p})
	}
	return apps
}

func attachSMIApps(gpus []GPU, apps []smiApp) {
	for i := range gpus {
		for _, a := range apps {
			if a.uuid == gpus[i].UUID {
				gpus[i].Processes = append(gpus[i].Processes, a.proc)
			}
		}
	}
}

// execRunner is the real commandRunner: argv only, killed at the deadline.
func execRunner(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stdout.String() + " " + stderr.String())
		if msg == "" {
			return nil, fmt.Errorf("%s: %w", filepath.Base(name), err)
		}
		return nil, fmt.Errorf("%s: %w: %s", filepath.Base(name), err, msg)
	}
	return stdout.Bytes(), nil
}
