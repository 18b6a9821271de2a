package urls

import (
	"errors"
	"strings"
	"testing"

	"gpuwiz/steps/i18n/i18ntest"
)

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		// the rules runner's copy had, with its expectations
		"https://user:tok@host/x":                 "https://***@host/x",
		"http://tok@127.0.0.1:8080/whl":           "http://***@127.0.0.1:8080/whl",
		"see https://h/x?a=1&token=zz&b=2 now":    "see https://h/x?a=1&token=***&b=2 now",
		"https://h/x?API_KEY=k1":                  "https://h/x?API_KEY=***",
		"plain https://download.pytorch.org/whl/": "plain https://download.pytorch.org/whl/",
		"user@example.com wrote":                  "user@example.com wrote",
		// any scheme, the example
		`--index-url "ftp://user:s3cret@host/simple"`: `--index-url "ftp://***@host/simple"`,
		// a password with an unescaped @ goes whole
		"https://bob:p@ss@mirror.example/simple": "https://***@mirror.example/simple",
		// no scheme: a mistyped index URL in an error
		"user:SECRET@host/simple is not a URL":   "***@host/simple is not a URL",
		`"user:SECRET@host/simple" is not a URL`: `"***@host/simple" is not a URL`,
		"--index-url=user:SECRET@host/simple":    "--index-url=***@host/simple",
		"at 12:30 we met; ratio 1:2 holds":       "at 12:30 we met; ratio 1:2 holds",
		"git@github.com:org/repo.git":            "git@github.com:org/repo.git",
		"https://h/x?X-Amz-Signature=abc&X-Amz-Credential=AKIA%2F&x-amz-security-token=t&sig=s&a=b": "https://h/x?X-Amz-Signature=***&X-Amz-Credential=***&x-amz-security-token=***&sig=***&a=b",
		"https://h/x;access_token=zz": "https://h/x;access_token=***",
		// as Go's JSON encoder writes a URL: & is \u0026
		`{"url": "https://h/x?a=1\u0026token=zz\u0026b=2"}`: `{"url": "https://h/x?a=1\u0026token=***\u0026b=2"}`,
		"https://h/x?password=pw&pwd=2&secret=3&auth=4":     "https://h/x?password=***&pwd=***&secret=***&auth=***",
		// the rules doctor's copy had
		"Authorization: Bearer zzz":                     "Authorization: Bearer ***",
		"PIP_EXTRA_INDEX_URL=https://x.example/simple":  "PIP_EXTRA_INDEX_URL=***",
		"PIP_INDEX_URL: https://x.example/simple":       "PIP_INDEX_URL: ***",
		"HTTPS_PROXY=http://proxyuser:pw@10.0.0.5:3128": "HTTPS_PROXY=http://***@10.0.0.5:3128",
		// an empty value in a log's environment dump stays empty: the next line's first word is not it
		"  env PIP_EXTRA_INDEX_URL=\n  env PIP_FIND_LINKS=\n": "  env PIP_EXTRA_INDEX_URL=\n  env PIP_FIND_LINKS=\n",
		"Authorization:\nnext line":                           "Authorization:\nnext line",
		"":                                                    "",
		"安装":                                                  "安装",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	if got := RedactAll([]string{"https://a:b@h", "x"}); got[0] != "https://***@h" || got[1] != "x" {
		t.Errorf("RedactAll: %q", got)
	}
	if got := Strip("https://alice:s3cr3t@mirror.example/simple/?token=abc"); got != "https://mirror.example/simple/?token=***" {
		t.Errorf("Strip: %q", got)
	}
}

func TestCheck(t *testing.T) {
	for _, ok := range []string{"https://download.pytorch.org/whl/cu126", "https://user:SECRET@mirror.example/simple", "http://127.0.0.1:8080/simple", "http://localhost/whl", "http://[::1]:9000/", " https://x.org/ ", "HTTPS://X.ORG/"} {
		if _, err := Check(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"http://example.com/whl/cu126", "loopback"},
		{"http://mirror.example.org/simple", "use https"},
		{"ftp://user:SECRET@host/simple", "scheme must be https, not ftp"},
		{"user:SECRET@host/simple", "is not a URL"},
		{"download.pytorch.org/whl", "is not a URL"},
		{"not a url", "is not a URL"},
		{"https://", "is not a URL"},
		{"http://user:SECRET@example.com/simple?token=SECRET", "plain http"},
		{"", "is not a URL"},
	} {
		_, err := Check(c.in)
		if err == nil {
			t.Errorf("%q accepted", c.in)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "SECRET") || !IsCheckError(err) {
			t.Errorf("Check(%q) = %v, want %q and no SECRET", c.in, err, c.want)
		}
	}
}

func TestCheckSaysItInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	for _, in := range []string{"http://example.com/whl", "ftp://u:SECRET@host/x", "nope"} {
		_, err := Check(in)
		if err == nil || strings.Contains(err.Error(), "SECRET") {
			t.Fatalf("%q: %v", in, err)
		}
		i18ntest.NoEnglishProse(t, in, err.Error())
	}
}

func TestIsLoopback(t *testing.T) {
	for h, want := range map[string]bool{"localhost": true, "LOCALHOST": true, "127.0.0.1": true, "127.8.9.1": true, "::1": true, "10.0.0.1": false, "example.com": false, "": false, "localhost.example.com": false} {
		if IsLoopback(h) != want {
			t.Errorf("IsLoopback(%q) != %v", h, want)
		}
	}
}

func TestOnLoopback(t *testing.T) {
	for raw, want := range map[string]bool{
		"http://127.0.0.1:8080/whl/cu126": true, "http://localhost/simple": true, "http://[::1]:9000/": true,
		"https://download.pytorch.org/whl/cu126": false, "https://mirrors.aliyun.com/pypi/simple": false, "": false, "127.0.0.1": false,
	} {
		if got := OnLoopback(raw); got != want {
			t.Errorf("OnLoopback(%q) = %v, want %v", raw, got, want)
		}
	}
}

// RedactAll is Redact over each string.
func RedactAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = Redact(s)
	}
	return out
}

// IsCheckError reports whether err is Check's refusal.
func IsCheckError(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
