package driver

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/fetch"
	"gpuwiz/steps/testkit/gobuild"
	"gpuwiz/steps/testkit/nvlookup"
)

// An interrupted download of an installer resumes: the first run is cut off part-way (no retries),
// the partial file stays, and the next run asks only for the rest (a Range from where it stopped)
// and ends with the whole file.
func TestInterruptedDownloadResumes(t *testing.T) {
	s := nvlookup.Serve(t, nil, nil)
	body := bytes.Repeat([]byte("NVIDIA-installer-bytes;"), 200_000) // 4.6 MB
	name := "581.57-desktop-win10-win11-64bit-international-dch-whql.exe"
	u := s.File("581.57", name, body)
	dir := t.TempDir()
	r := Release{Version: "581.57", File: name, URL: u}
	s.CutNextAfter(1 << 20)
	_, _, err := Download(context.Background(), r, dir, fetch.Options{Retries: -1, Connections: 1, MaxParts: 1})
	if err == nil {
		t.Fatal("the cut download reported success")
	}
	part, err := os.Stat(filepath.Join(dir, name+fetch.PartSuffix))
	if err != nil || part.Size() == 0 {
		t.Fatalf("no partial file kept: %v", err)
	}
	s.Up()
	path, res, err := Download(context.Background(), r, dir, fetch.Options{Connections: 1, MaxParts: 1})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if !bytes.Equal(got, body) {
		t.Fatalf("resumed file differs: %d bytes, want %d", len(got), len(body))
	}
	if res.Reused < 1<<20 || res.Fetched >= int64(len(body)) {
		t.Errorf("reused %d, fetched %d: the second run did not go on from the partial file", res.Reused, res.Fetched)
	}
	resumed := false
	for _, rg := range s.Ranges {
		resumed = resumed || (strings.HasPrefix(rg, "bytes=") && !strings.HasPrefix(rg, "bytes=0-"))
	}
	if !resumed {
		t.Errorf("no Range from the middle of the file: %v", s.Ranges)
	}
}

type recordingRunner struct{ runs [][]string }

func (r *recordingRunner) Run(_ context.Context, path string, args []string) (int, error) {
	r.runs = append(r.runs, append([]string{path}, args...))
	return 0, nil
}

// fakeTrust stands in for WinVerifyTrust, which only Windows has.
type fakeTrust struct{ signer string }

func (f fakeTrust) Verify(string) (string, error) {
	if f.signer == "" {
		return "", errors.New("TRUST_E_BAD_DIGEST")
	}
	return f.signer, nil
}

// A Windows program with no Authenticode signature (a Go program built for Windows) is refused and
// never run, whatever a verifier would say; so is a file that is no program, one of the wrong size,
// one whose signature does not verify and one signed by someone else. Only a verified NVIDIA
// signature runs, with -s -noreboot for --silent.
func TestUnsignedInstallerIsRefusedAndNotRun(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte("package main\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module tiny\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := gobuild.Build(t, gobuild.Options{Dir: dir, Package: "main.go", Out: filepath.Join(dir, "setup.exe"), Env: []string{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0"}})
	run := &recordingRunner{}
	refused := func(path string, size int64, v Verifier, code string) {
		t.Helper()
		_, err := Install(context.Background(), path, size, true, v, run)
		var r *Refusal
		if !errors.As(err, &r) || r.Code != code {
			t.Errorf("%s: %v, want refusal %q", filepath.Base(path), err, code)
		}
	}
	refused(exe, 0, fakeTrust{signer: Signer}, "unsigned")
	text := filepath.Join(dir, "notes.exe")
	_ = os.WriteFile(text, []byte("MZ not really"), 0o644)
	refused(text, 0, fakeTrust{signer: Signer}, "not_program")
	refused(filepath.Join(dir, "missing.exe"), 0, nil, "not_found")

	// The same program with a security directory (as a signed file has): now the signature decides.
	signed := filepath.Join(dir, "signed.exe")
	b, _ := os.ReadFile(exe)
	peOff := binary.LittleEndian.Uint32(b[0x3c:])
	dd := int(peOff) + 24 + 112 + 4*8 // PE32+ optional header: data directory 4 (security)
	binary.LittleEndian.PutUint32(b[dd:], uint32(len(b)))
	binary.LittleEndian.PutUint32(b[dd+4:], 8)
	_ = os.WriteFile(signed, b, 0o644)
	refused(signed, int64(len(b))+1, fakeTrust{signer: Signer}, "size")
	refused(signed, 0, nil, "no_check")
	refused(signed, 0, fakeTrust{}, "bad_signature")
	refused(signed, 0, fakeTrust{signer: "Contoso Ltd"}, "signer")
	if len(run.runs) != 0 {
		t.Fatalf("a refused file was run: %v", run.runs)
	}
	res, err := Install(context.Background(), signed, int64(len(b)), true, fakeTrust{signer: Signer}, run)
	if err != nil || len(run.runs) != 1 || strings.Join(run.runs[0][1:], " ") != "-s -noreboot" || res.ExitCode != 0 {
		t.Errorf("verified installer: %v, runs %v", err, run.runs)
	}
	if _, err := Install(context.Background(), signed, 0, false, fakeTrust{signer: Signer}, run); err != nil || len(run.runs[1]) != 1 {
		t.Errorf("not silent: NVIDIA's own screens, no arguments: %v %v", err, run.runs)
	}
}

// InstallResult is what the installer did.
type InstallResult struct {
	Path     string   `json:"path"`
	Args     []string `json:"args"`
	ExitCode int      `json:"exit_code"`
}

// Install checks the installer (CheckInstaller) and only then runs it with r. A refused file is
// returned as *Refusal and never started.
func Install(ctx context.Context, path string, size int64, silent bool, v Verifier, r Runner) (InstallResult, error) {
	res := InstallResult{Path: path, Args: InstallArgs(silent)}
	if err := CheckInstaller(path, size, v); err != nil {
		return res, err
	}
	if r == nil {
		return res, &Refusal{Code: "no_check"}
	}
	code, err := r.Run(ctx, path, res.Args)
	res.ExitCode = code
	return res, err
}
