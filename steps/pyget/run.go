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
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
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
var ErrChecksum = errors.New("checksum mismatch")

// Run carries out p on Windows (winget, or download, check and run the installer) and finds the
// new interpreter. A cancel (ctx) during the download deletes the partial file; during the
// install it waits for the installer (stopping it half-way would leave a broken Python) and then
// uninstalls what it had put in, unless that Python was there before.
func Run(ctx context.Context, o Options, p Plan) (Result, error) {
	o = o.withDefaults()
	if p.Method == MethodDistro {
		return Result{}, errors.New("on this system gpuwiz does not install Python: run the distribution's command shown")
	}
	existed := fileExists(p.Target)
	if p.Method == MethodInstaller {
		if err := fetchInstaller(ctx, o, &p); err != nil {
			res := Result{Error: err.Error(), Cancelled: ctx.Err() != nil}
			return res, err
		}
	}
	res := Result{SHA256: p.SHA256}
	o.OnEvent(Event{Step: StepInstall, Message: "run " + runner.QuoteArgv(p.Command)})
	stop := context.AfterFunc(ctx, func() {
		o.OnEvent(Event{Step: StepInstall, Message: "cancel asked: waiting for the installer to finish (stopping it half-way would leave a broken Python), then removing what it installed"})
	})
	run := runOut(context.WithoutCancel(ctx), o, StepInstall, p.Command)
	stop()
	if ctx.Err() != nil {
		res.Cancelled = true
		if !existed && (fileExists(p.Target) || run.Err == nil) {
			o.OnEvent(Event{Step: StepUndo, Message: "run " + runner.QuoteArgv(p.undo)})
			if u := runOut(context.WithoutCancel(ctx), o, StepUndo, p.undo); u.Err != nil {
				err := fmt.Errorf("cancelled; removing the Python the installer had put in failed: %v%s (remove it in Settings > Apps)", u.Err, tail(u))
				res.Error = err.Error()
				return res, err
			}
			res.Undone = true
		}
		err := context.Cause(ctx)
		res.Error = "cancelled"
		if res.Undone {
			res.Error = "cancelled: the installed Python was removed again"
		}
		return res, err
	}
	if run.Err != nil {
		err := fmt.Errorf("%s failed: %v%s%s", p.Method, run.Err, tail(run), logNote(p))
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

func logNote(p Plan) string {
	if p.InstallLog == "" {
		return ""
	}
	return " (the installer's log: " + p.InstallLog + ")"
}

func tail(r runner.Result) string {
	if len(r.Tail) == 0 {
		return ""
	}
	return ": " + r.Tail[len(r.Tail)-1]
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
	res := o.Run.Run(ctx, runner.Cmd{Name: step, Argv: argv}, lines)
	close(lines)
	<-done
	return res
}

// findNew describes the interpreter the install made, through discovery with its known path.
func findNew(ctx context.Context, o Options, p Plan) (pyenv.Interpreter, error) {
	o.OnEvent(Event{Step: StepFind, Message: "look for the new Python " + p.Target})
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
		return pyenv.Interpreter{}, fmt.Errorf("the install finished but %s does not run: %v", p.Target, err)
	}
	for _, in := range found {
		if in.MinorVersion() == p.Minor && in.Kind != "store" && in.Kind != "venv" && (p.Version == "" || in.Version == p.Version) {
			return in, nil
		}
	}
	return pyenv.Interpreter{}, fmt.Errorf("the install finished but no Python %s was found afterwards (looked at %s, on PATH, in the py launcher and the registry)", p.Minor, p.Target)
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
		o.OnEvent(Event{Step: StepChecksum, Message: "published SHA-256 " + sum + " (from " + from + ")"})
	}
	if sum, err := fetch.FileSHA256(p.Installer); err == nil && sum == p.SHA256 {
		o.OnEvent(Event{Step: StepDownload, Message: "reuse the installer already downloaded: " + p.Installer})
		return nil
	}
	if err := os.MkdirAll(dirOf(p.Installer), 0o755); err != nil {
		return err
	}
	part := p.Installer + ".part"
	o.OnEvent(Event{Step: StepDownload, Message: "download " + p.URL, Total: p.Size})
	sum, err := download(ctx, o, p.URL, part, p.Size)
	if err != nil {
		os.Remove(part)
		if ctx.Err() != nil {
			return fmt.Errorf("cancelled during the download; the partial file was deleted: %w", context.Cause(ctx))
		}
		return err
	}
	if sum != p.SHA256 {
		os.Remove(part)
		return fmt.Errorf("%w: %s has SHA-256 %s, but the published one is %s (%s): the file was deleted and nothing was run; try again, or another mirror",
			ErrChecksum, p.URL, sum, p.SHA256, p.ChecksumFrom)
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
		return "", fmt.Errorf("downloading %s: %v", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("downloading %s: %s", url, resp.Status)
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
			return "", fmt.Errorf("downloading %s: %v", url, rerr)
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
func publishedSHA256(ctx context.Context, o Options, urls []string) (sum, from string, err error) {
	var errs []string
	for _, u := range urls {
		o.OnEvent(Event{Step: StepChecksum, Message: "fetch the published checksum " + u})
		s, err := sigstoreDigest(ctx, o.Client, u)
		if err == nil {
			return s, u, nil
		}
		errs = append(errs, err.Error())
	}
	return "", "", fmt.Errorf("no published SHA-256 for this installer could be read (%s): without it gpuwiz runs nothing; pass the one from the python.org release page with --sha256", strings.Join(errs, "; "))
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
		return "", fmt.Errorf("%s: not a Sigstore bundle: %v", url, err)
	}
	d := b.MessageSignature.MessageDigest
	raw, err := base64.StdEncoding.DecodeString(d.Digest)
	if d.Algorithm != "SHA2_256" || err != nil || len(raw) != sha256.Size {
		return "", fmt.Errorf("%s: no SHA2_256 message digest in the bundle", url)
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
