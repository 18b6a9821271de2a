package vcredist

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
)

// serve answers every request with body, as Microsoft's link would with the installer.
type serve struct {
	body string
	urls []string
}

func (s *serve) RoundTrip(r *http.Request) (*http.Response, error) {
	s.urls = append(s.urls, r.URL.String())
	return &http.Response{StatusCode: 200, Status: "200 OK", Body: io.NopCloser(strings.NewReader(s.body)), Header: http.Header{}, Request: r}, nil
}

// Nothing runs unless the signature checks out; a refused file is deleted; an installer that needs
// administrator rights is handed to the user, checked, never elevated.
func TestInstallChecksTheSignatureBeforeAnythingRuns(t *testing.T) {
	s := &serve{body: "MZ pretend installer"}
	started := 0
	d := Deps{Client: &http.Client{Transport: s}, Start: func(context.Context, string, ...string) error { started++; return nil }}

	d.Verify = func(string) error { return errors.New("TRUST_E_NOSIGNATURE") }
	dir := t.TempDir()
	res, err := Install(context.Background(), d, dir)
	if err == nil || started != 0 || res.Verified || !strings.Contains(err.Error(), "nothing ran") {
		t.Fatalf("unsigned: %+v %v, started %d", res, err, started)
	}
	if _, serr := os.Stat(res.Path); !os.IsNotExist(serr) {
		t.Errorf("the refused file is still there: %v", serr)
	}
	if len(s.urls) != 1 || s.urls[0] != URL {
		t.Errorf("asked %q", s.urls)
	}

	d.Verify = func(string) error { return nil }
	d.Start = func(_ context.Context, path string, args ...string) error {
		started++
		if strings.Join(args, " ") != "/install /passive /norestart" {
			t.Errorf("args %q", args)
		}
		return ErrNeedsAdmin
	}
	res, err = Install(context.Background(), d, dir)
	if !errors.Is(err, ErrNeedsAdmin) || !res.NeedsAdmin || !res.Verified || res.Ran || started != 1 || !strings.Contains(err.Error(), "double-click") {
		t.Fatalf("needs admin: %+v %v", res, err)
	}
	if b, _ := os.ReadFile(res.Path); string(b) != s.body {
		t.Errorf("the checked installer is not left for the user: %q", b)
	}

	d.Start = func(context.Context, string, ...string) error { return nil }
	if res, err = Install(context.Background(), d, dir); err != nil || !res.Ran {
		t.Fatalf("ran: %+v %v", res, err)
	}
}

// Off Windows the real check refuses: nothing can run.
func TestNoSignatureCheckOffWindows(t *testing.T) {
	if err := VerifySignature("vc_redist.x64.exe"); err == nil {
		t.Fatal("a signature was accepted off Windows")
	}
}
