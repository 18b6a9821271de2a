package fetch

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"gpuwiz/steps/i18n/i18ntest"
)

// The downloader's words in Chinese, from real downloads over a loopback server: continuing after
// dropped connections, continuing a cancelled run, files already in place, a file that fails its
// sha256 and one the server does not have. These tests switch the process's language: none runs
// in parallel, and each puts English back.

type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) add(s string) { l.mu.Lock(); l.lines = append(l.lines, s); l.mu.Unlock() }
func (l *logLines) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func TestChineseDownloadResumeAndCheck(t *testing.T) {
	i18ntest.Chinese(t)
	fam := family()
	torch := "torch-2.6.0+cu126-py3-none-any.whl"

	// Every part's first response is cut short: each is continued from the byte it stopped at.
	s := newServer(t, fam)
	s.dropOnce = map[string]*sync.Once{}
	dir := t.TempDir()
	var dropped logLines
	if _, err := Fetch(context.Background(), files(s, names(fam)...), Options{Dir: dir, PartSize: 1 << 20, Log: dropped.add}); err != nil {
		t.Fatal(err)
	}
	checkDir(t, dir, fam)
	t.Log("\n" + dropped.text())
	if !strings.Contains(dropped.text(), "：连接中断（unexpected EOF）；从第 ") || !strings.Contains(dropped.text(), "字节处续传") || !strings.Contains(dropped.text(), "从 "+s.Listener.Addr().String()+" 下载 ") {
		t.Errorf("no continued part is reported in Chinese:\n%s", dropped.text())
	}
	// A second run finds every file in place.
	var again logLines
	if _, err := Fetch(context.Background(), files(s, torch), Options{Dir: dir, Log: again.add}); err != nil {
		t.Fatal(err)
	}
	if want := torch + "：已存在，sha256 校验值已核对"; again.text() != want {
		t.Errorf("second run said %q, want %q", again.text(), want)
	}

	// A run cancelled half-way is continued by the next one, which says so.
	s2 := newServer(t, fam)
	s2.rate.Store(4 << 20)
	dir2 := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	c := &Counters{}
	go func() {
		for c.Stats().Done < int64(len(fam[torch]))/2 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	if _, err := Fetch(ctx, files(s2, torch), Options{Dir: dir2, PartSize: 1 << 20, Connections: 2, Progress: c}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	s2.rate.Store(0)
	var resumed logLines
	if _, err := Fetch(context.Background(), files(s2, torch), Options{Dir: dir2, PartSize: 1 << 20, Connections: 2, Log: resumed.add}); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + resumed.text())
	if !strings.Contains(resumed.text(), torch+"：继续上次未完成的下载（已有 ") {
		t.Errorf("the second run does not say in Chinese that it continues:\n%s", resumed.text())
	}

	// A file whose bytes do not match its sha256 is refused, in Chinese, and still matched by errors.Is.
	s3 := newServer(t, fam)
	bad := "dep3-1.0-py3-none-any.whl"
	s3.corrupt[bad] = true
	_, err := Fetch(context.Background(), files(s3, bad), Options{Dir: t.TempDir()})
	if !errors.Is(err, ErrHashMismatch) || !strings.Contains(err.Error(), "sha256 校验值不符：从 "+s3.Listener.Addr().String()+" 下载的 "+bad) ||
		!strings.Contains(err.Error(), "文件已删除，没有安装任何东西") {
		t.Fatalf("the sha256 error is not in Chinese: %v", err)
	}
	t.Log(err)

	// A file the server does not have.
	_, nf := Fetch(context.Background(), []File{{URL: s3.URL + "/files/x-1.0-py3-none-any.whl", Name: "x-1.0-py3-none-any.whl", SHA256: strings.Repeat("a", 64)}}, Options{Dir: t.TempDir()})
	if nf == nil || !strings.Contains(nf.Error(), "服务器返回 404") {
		t.Fatalf("the missing file's error is not in Chinese: %v", nf)
	}
	t.Log(nf)

	all := strings.Join([]string{dropped.text(), again.text(), resumed.text(), err.Error(), nf.Error()}, "\n")
	i18ntest.NoEnglishProse(t, "the downloader's words", all)
}

// Credentials the downloader does not have leave the download to pip: the error is still
// ErrUnsupported, and says why in Chinese.
func TestChineseDownloadNeedsCredentials(t *testing.T) {
	i18ntest.Chinese(t)
	fam := family()
	s := newServer(t, fam)
	s.wantAuth = "user:secret"
	_, err := Fetch(context.Background(), files(s, "dep0-1.0-py3-none-any.whl"), Options{Dir: t.TempDir()})
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "下载器无法处理：") || !strings.Contains(err.Error(), "401") {
		t.Fatalf("want ErrUnsupported in Chinese, got %v", err)
	}
	t.Log(err)
	i18ntest.NoEnglishProse(t, "the credentials error", err.Error())
	if _, err := Fetch(context.Background(), []File{{URL: "ftp://example.org/a.whl", Name: "a.whl", SHA256: strings.Repeat("a", 64)}}, Options{Dir: t.TempDir()}); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "不是 http(s) 网址") {
		t.Fatalf("ftp: %v", err)
	}
}
