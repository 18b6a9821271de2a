package pyget

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"gpuwiz/steps/runner"
)

// A --mirror with user:SECRET@ is used for the download (the mirror wants the credentials) and
// shown nowhere: not in a refusal, an event, the log, or the checksum error of a tampered file.
func TestMirrorCredentialsAreUsedButNeverShown(t *testing.T) {
	for _, bad := range []string{"http://user:SECRET@example.com/python/", "ftp://user:SECRET@example.com/python/", "user:SECRET@example.com/python/"} {
		_, err := MakePlan(Options{Version: "3.12", GOOS: "windows", Mirror: bad, Env: env(map[string]string{"LOCALAPPDATA": `C:\x`}), LookPath: noWinget})
		if !errors.Is(err, ErrBadInput) || strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), "***@example.com") {
			t.Errorf("--mirror %s: %v", bad, err)
		}
	}
	for _, tampered := range []bool{false, true} {
		f := newFixture(t)
		if tampered {
			other := sha256.Sum256([]byte("another file"))
			f.digest = other[:]
		}
		var authorized int
		mirror := f.srv.Config.Handler
		f.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if u, p, ok := r.BasicAuth(); !ok || u != "user" || p != "SECRET" {
				http.Error(w, "credentials, please", http.StatusUnauthorized)
				return
			}
			authorized++
			mirror.ServeHTTP(w, r)
		})
		var events []Event
		o := f.options(t, &events)
		o.Mirror = strings.Replace(f.srv.URL, "http://", "http://user:SECRET@", 1) + "/"
		var log bytes.Buffer
		o.Run = runner.New(&log)
		p, err := MakePlan(o)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), o, p)
		if tampered != (err != nil) || authorized == 0 {
			t.Fatalf("tampered %v: %v, %+v, %d authorized requests", tampered, err, res, authorized)
		}
		text := fmt.Sprintf("%v\n%+v\n%s\n%+v", err, events, log.String(), res)
		if strings.Contains(text, "SECRET") {
			t.Errorf("tampered %v: the secret is shown:\n%s", tampered, text)
		}
	}
}
