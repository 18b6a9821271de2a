package pyget

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"gpuwiz/steps/fetch"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
)

// Steps, in the order they run.
const (
	StepChecksum = "checksum"
	StepDownload = "download"
	StepInstall  = "install"
	StepUndo     = "undo"
	StepFind     = "find"
)

// Event is progress: a step's message, download bytes, or a line the installer printed.
type Event struct {
	Step    string `json:"step"`
	Message string `json:"message,omitempty"`
	Line    string `json:"line,omitempty"`
	Done    int64  `json:"done,omitempty"`
	Total   int64  `json:"total,omitempty"`
}

// Result is what happened.
type Result struct {
	Installed bool               `json:"installed"`
	Cancelled bool               `json:"cancelled,omitempty"`
	Undone    bool               `json:"undone,omitempty"` // a cancel removed what the installer had put in
	Python    *pyenv.Interpreter `json:"python,omitempty"`
	SHA256    string             `json:"sha256,omitempty"` // what the downloaded installer hashed to
	Error     string             `json:"error,omitempty"`
}

// ErrChecksum marks an installer whose SHA-256 is not the published one; it was deleted, not run.
var ErrChecksum = errors.New("checksum mismatch") //i18n:raw a sentinel for errors.Is; the text shown is pyget.error.checksum

// label is the words for a step's command, for the runner's messages ("install exited with code 1").
func label(step string) string { return stepLabels.Say(step, step) }

var stepLabels = i18n.Words[string]{
	StepInstall: func() string { return i18n.T("pyget.label.install") },
	StepUndo:    func() string { return i18n.T("pyget.label.undo") },
}

// Run carries out p on Windows (winget, or download, check and run the installer) and finds the
// new interpreter. A cancel (ctx) during the download deletes the partial file; during the
// install it waits for the installer (stopping it half-way would leave a broken Python) and then
// uninstalls what it had put in, unless that Python was there before.
func Run(ctx context.Context, o Options, p Plan) (Result, error) {
	o = o.withDefaults()
	if p.Method == MethodDistro {
		return Result{}, errors.New(i18n.T("pyget.error.distro"))
	}
	existed := fileExists(p.Target)
	if p.Method == MethodInstaller {
		if err := fetchInstaller(ctx, o, &p); err != nil {
			res := Result{Error: err.Error(), Cancelled: ctx.Err() != nil}
			return res, err
		}
	}
	res := Result{SHA256: p.SHA256}
	o.OnEvent(Event{Step: StepInstall, Message: i18n.T("pyget.event.run", i18n.D{"Command": runner.QuoteArgv(p.Command)})})
	stop := context.AfterFunc(ctx, func() {
		o.OnEvent(Event{Step: StepInstall, Message: i18n.T("pyget.event.cancel_wait")})
	})
	run := runOut(context.WithoutCancel(ctx), o, StepInstall, p.Command)
	stop()
	if ctx.Err() != nil {
		res.Cancelled = true
		if !existed && (fileExists(p.Target) || run.Err == nil) {
			o.OnEvent(Event{Step: StepUndo, Message: i18n.T("pyget.event.run", i18n.D{"Command": runner.QuoteArgv(p.undo)})})
			if u := runOut(context.WithoutCancel(ctx), o, StepUndo, p.undo); u.Err != nil {
				err := i18n.Wrap(u.Err, i18n.T("pyget.error.undo_failed", i18n.D{"Err": u.Err, "Tail": tail(u)}))
				res.Error = err.Error()
				return res, err
			}
			res.Undone = true
		}
		err := context.Cause(ctx)
		res.Error = i18n.T("pyget.result.cancelled")
		if res.Undone {
			res.Error = i18n.T("pyget.result.cancelled_undone")
		}
		return res, err
	}
	if run.Err != nil {
		err := i18n.Wrap(run.Err, i18n.T("pyget.error.failed", i18n.D{"Method": MethodName(p.Method), "Err": run.Err, "Tail": tail(run)}))
		if p.InstallLog != "" {
			err = i18n.Wrap(run.Err, i18n.T("pyget.error.failed_log", i18n.D{"Method": MethodName(p.Method), "Err": run.Err, "Tail": tail(run), "Log": p.InstallLog}))
		}
		res.Error = err.Error()
		return res, err
	}
	res.Installed = true
	in, err := findNew(ctx, o, p)
	if err != nil {
		res.Error = err.Error()
		return res, err
	}
	res.Python = &in
	return res, nil
}

func tail(r runner.Result) string {
	if len(r.Tail) == 0 {
		return ""
	}
	return i18n.T("pyget.tail", i18n.D{"Line": r.Tail[len(r.Tail)-1]})
}

func runOut(ctx context.Context, o Options, step string, argv []string) runner.Result {
	lines := make(chan runner.Line, 256)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for l := range lines {
			if t := strings.TrimSpace(l.Text); t != "" {
				o.OnEvent(Event{Step: step, Line: t})
			}
		}
	}()
	res := o.Run.Run(ctx, runner.Cmd{Name: label(step), Argv: argv}, lines)
	close(lines)
	<-done
	return res
}

// findNew describes the interpreter the install made, through discovery with its known path.
func findNew(ctx context.Context, o Options, p Plan) (pyenv.Interpreter, error) {
	o.OnEvent(Event{Step: StepFind, Message: i18n.T("pyget.event.find", i18n.D{"Path": p.Target})})
	explicit := ""
	if fileExists(p.Target) {
		explicit = p.Target
	}
	found, err := pyenv.Discover(ctx, pyenv.DiscoverOptions{Explicit: explicit, GOOS: o.GOOS, Env: o.Env, LookPath: o.LookPath, Run: o.Run, Distro: o.Distro})
	// A python.exe written a moment ago may not start yet (an antivirus scanning it; seen under
	// Wine as "fork/exec …: Internal error"): give it two more tries before calling it broken.
	for try := 0; err != nil && explicit != "" && try < 2 && ctx.Err() == nil; try++ {
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
		found, err = pyenv.Discover(ctx, pyenv.DiscoverOptions{Explicit: explicit, GOOS: o.GOOS, Env: o.Env, LookPath: o.LookPath, Run: o.Run, Distro: o.Distro})
	}
	if err != nil {
		return pyenv.Interpreter{}, i18n.Wrap(err, i18n.T("pyget.error.new_not_running", i18n.D{"Path": p.Target, "Err": err}))
	}
	for _, in := range found {
		if in.MinorVersion() == p.Minor && in.Kind != "store" && in.Kind != "venv" && (p.Version == "" || in.Version == p.Version) {
			return in, nil
		}
	}
	return pyenv.Interpreter{}, errors.New(i18n.T("pyget.error.new_not_found", i18n.D{"Minor": p.Minor, "Path": p.Target}))
}

// fetchInstaller learns the expected SHA-256, then downloads the installer (or reuses the kept
// one) and checks it. A mismatch deletes the file: nothing is run.
func fetchInstaller(ctx context.Context, o Options, p *Plan) error {
	if p.SHA256 == "" {
		sum, from, err := publishedSHA256(ctx, o, p.sigstoreURLs)
		if err != nil {
			return err
		}
		p.SHA256, p.ChecksumFrom = sum, from
		o.OnEvent(Event{Step: StepChecksum, Message: i18n.T("pyget.event.published", i18n.D{"SHA256": sum, "From": from})})
	}
	if sum, err := fetch.FileSHA256(p.Installer); err == nil && sum == p.SHA256 {
		o.OnEvent(Event{Step: StepDownload, Message: i18n.T("pyget.event.reuse", i18n.D{"Path": p.Installer})})
		return nil
	}
	if err := os.MkdirAll(dirOf(p.Installer), 0o755); err != nil {
		return err
	}
	part := p.Installer + ".part"
	o.OnEvent(Event{Step: StepDownload, Message: i18n.T("pyget.event.download", i18n.D{"URL": urls.Redact(p.URL)}), Total: p.Size})
	sum, err := download(ctx, o, p.URL, part, p.Size)
	if err != nil {
		os.Remove(part)
		if ctx.Err() != nil {
			return i18n.Wrap(context.Cause(ctx), i18n.T("pyget.error.download_cancelled", i18n.D{"Err": context.Cause(ctx)}))
		}
		return err
	}
	if sum != p.SHA256 {
		os.Remove(part)
		return i18n.Wrap(ErrChecksum, i18n.T("pyget.error.checksum", i18n.D{"URL": urls.Redact(p.URL), "Got": sum, "Want": p.SHA256, "From": p.ChecksumFrom}))
	}
	return os.Rename(part, p.Installer)
}

func download(ctx context.Context, o Options, url, dst string, size int64) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := o.Client.Do(req)
	if err != nil {
		return "", i18n.Wrap(err, i18n.T("pyget.error.download", i18n.D{"URL": urls.Redact(url), "Err": err}))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", errors.New(i18n.T("pyget.error.download", i18n.D{"URL": urls.Redact(url), "Err": resp.Status}))
	}
	total := resp.ContentLength
	if total <= 0 {
		total = size
	}
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o755) // an installer: executable
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	buf := make([]byte, 256<<10)
	var done int64
	last := time.Time{}
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			if _, err := f.Write(buf[:n]); err != nil {
				return "", err
			}
			h.Write(buf[:n])
			done += int64(n)
			if time.Since(last) > 200*time.Millisecond {
				o.OnEvent(Event{Step: StepDownload, Done: done, Total: total})
				last = time.Now()
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return "", i18n.Wrap(rerr, i18n.T("pyget.error.download", i18n.D{"URL": urls.Redact(url), "Err": rerr}))
		}
	}
	o.OnEvent(Event{Step: StepDownload, Done: done, Total: total})
	if err := f.Close(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// publishedSHA256 reads the SHA-256 digest from the first Sigstore bundle (FILE.sigstore) that
// can be fetched. python.org publishes one beside each release file; its messageDigest is the
// file's SHA-256. The bundle's signature is not verified here: the digest guards against a
// corrupt or altered download from a mirror when it comes from python.org itself.
func publishedSHA256(ctx context.Context, o Options, sources []string) (sum, from string, err error) {
	var errs []string
	for _, u := range sources {
		o.OnEvent(Event{Step: StepChecksum, Message: i18n.T("pyget.event.fetch_checksum", i18n.D{"URL": urls.Redact(u)})})
		s, err := sigstoreDigest(ctx, o.Client, u)
		if err == nil {
			return s, u, nil
		}
		errs = append(errs, err.Error())
	}
	return "", "", errors.New(i18n.T("pyget.error.no_checksum", i18n.D{"Errs": strings.Join(errs, "; ")}))
}

func sigstoreDigest(ctx context.Context, c *http.Client, url string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", fmt.Errorf("%s: %v", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", url, resp.Status)
	}
	var b struct {
		MessageSignature struct {
			MessageDigest struct {
				Algorithm string `json:"algorithm"`
				Digest    string `json:"digest"`
			} `json:"messageDigest"`
		} `json:"messageSignature"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&b); err != nil {
		return "", errors.New(i18n.T("pyget.error.not_sigstore", i18n.D{"URL": urls.Redact(url), "Err": err}))
	}
	d := b.MessageSignature.MessageDigest
	raw, err := base64.StdEncoding.DecodeString(d.Digest)
	if d.Algorithm != "SHA2_256" || err != nil || len(raw) != sha256.Size {
		return "", errors.New(i18n.T("pyget.error.no_digest", i18n.D{"URL": urls.Redact(url)}))
	}
	return hex.EncodeToString(raw), nil
}

// fileExists takes a Windows path too (Wine and Windows resolve it; on Linux tests it is a host path).
func fileExists(p string) bool {
	if p == "" {
		return false
	}
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func dirOf(p string) string {
	i := strings.LastIndexAny(p, `\/`)
	if i <= 0 {
		return "."
	}
	return p[:i]
}
