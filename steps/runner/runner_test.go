package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"gpuwiz/steps/urls"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func collect(ch chan Line) []Line {
	close(ch)
	var out []Line
	for l := range ch {
		out = append(out, l)
	}
	return out
}

func TestArgumentsPassLiterally(t *testing.T) {
	weird := filepath.Join(t.TempDir(), "my venv & co; 张三", "python.exe")
	args := []string{weird, "a b", `"quoted"`, "$HOME", "*", "", "semi;colon", "back\\slash"}
	ch := make(chan Line, 10)
	res := New(nil).Run(context.Background(), helper("args", args...), ch)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	lines := collect(ch)
	var got []string
	if len(lines) != 1 || json.Unmarshal([]byte(lines[0].Text), &got) != nil {
		t.Fatalf("lines = %+v", lines)
	}
	if strings.Join(got, "\x00") != strings.Join(args, "\x00") {
		t.Fatalf("child got %q, want %q", got, args)
	}
}

func TestExitCodeAndStderr(t *testing.T) {
	var log bytes.Buffer
	ch := make(chan Line, 10)
	res := New(&log).Run(context.Background(), helper("exit3"), ch)
	var ee *ExitCodeError
	if res.ExitCode != 3 || !errors.As(res.Err, &ee) || ee.Code != 3 || res.OK() {
		t.Fatalf("result = %+v", res)
	}
	lines := collect(ch)
	if len(lines) != 1 || lines[0].Stream != "stderr" || lines[0].Text != "failing on purpose" {
		t.Fatalf("lines = %+v", lines)
	}
	if len(res.Tail) != 1 || !strings.Contains(log.String(), "! failing on purpose") || !strings.Contains(log.String(), "exit code 3") {
		t.Fatalf("tail %q, log:\n%s", res.Tail, log.String())
	}
}

func TestMissingProgramIsAnError(t *testing.T) {
	res := New(nil).Run(context.Background(), Cmd{Argv: []string{filepath.Join(t.TempDir(), "nope")}}, nil)
	if res.Err == nil || res.ExitCode != -1 {
		t.Fatalf("result = %+v", res)
	}
}

func TestLinesStreamWhileChildRuns(t *testing.T) {
	flag := filepath.Join(t.TempDir(), "go")
	ch := make(chan Line, 10)
	done := make(chan Result, 1)
	go func() { done <- New(nil).Run(context.Background(), helper("wait-file", flag), ch) }()
	select {
	case l := <-ch:
		if l.Text != "ready" {
			t.Fatalf("first line %q", l.Text)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no line while the child was running")
	}
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if res := <-done; res.Err != nil {
		t.Fatal(res.Err)
	}
	if l := <-ch; l.Text != "saw file" {
		t.Fatalf("second line %q", l.Text)
	}
}

func TestSlowReaderNeverBlocksChild(t *testing.T) {
	var log bytes.Buffer
	ch := make(chan Line, 4) // nobody reads until the child is done
	res := New(&log).Run(context.Background(), helper("many", "5000"), ch)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	lines := collect(ch)
	if len(lines) != 4 || lines[0].Text != "line 0" {
		t.Fatalf("channel got %d lines, first %+v", len(lines), lines)
	}
	if n := strings.Count(log.String(), "\n  line "); n != 5000 {
		t.Fatalf("log has %d of 5000 lines", n)
	}
	if res.Tail[len(res.Tail)-1] != "line 4999" {
		t.Fatalf("tail ends %q", res.Tail[len(res.Tail)-1])
	}
}

func TestSkippedLinesAreAnnounced(t *testing.T) {
	ch := make(chan Line, 2)
	rec := &record{name: "x", lines: ch}
	for i := 0; i < 5; i++ {
		rec.line("stdout", "l"+strconv.Itoa(i))
	}
	if a, b := <-ch, <-ch; a.Text != "l0" || b.Text != "l1" {
		t.Fatalf("first lines %q %q", a.Text, b.Text)
	}
	rec.line("stdout", "l5")
	note, next := <-ch, <-ch
	if note.Text != "[gpuwiz: 3 lines not shown; the log has them all]" || next.Text != "l5" {
		t.Fatalf("after drain: %q %q", note.Text, next.Text)
	}
	if !strings.Contains(rec.buf.String(), "  l3\n") {
		t.Fatalf("log lost a dropped line:\n%s", rec.buf.String())
	}
}

func TestLongLinesAreCapped(t *testing.T) {
	ch := make(chan Line, 10)
	if res := New(nil).Run(context.Background(), helper("long"), ch); res.Err != nil {
		t.Fatal(res.Err)
	}
	lines := collect(ch)
	if len(lines) != 2 || len(lines[0].Text) > MaxLineBytes+100 || !strings.Contains(lines[0].Text, "more bytes of this line not kept") || lines[1].Text != "after" {
		t.Fatalf("got %d lines, first %d bytes", len(lines), len(lines[0].Text))
	}
}

func TestCarriageReturnsSplitProgress(t *testing.T) {
	ch := make(chan Line, 10)
	if res := New(nil).Run(context.Background(), helper("progress"), ch); res.Err != nil {
		t.Fatal(res.Err)
	}
	var got []Progress
	for _, l := range collect(ch) {
		p, ok := ParseProgress(l.Text)
		if !ok {
			t.Fatalf("unparsed line %q", l.Text)
		}
		got = append(got, p)
	}
	if len(got) != 3 || got[2] != (Progress{Done: 4, Total: 4}) || got[0] != (Progress{Done: 1, Total: 4}) {
		t.Fatalf("progress = %+v", got)
	}
}

func TestLogRedactsCredentials(t *testing.T) {
	var log bytes.Buffer
	ch := make(chan Line, 10)
	secret := "https://alice:s3cr3t@mirror.example.com/simple?token=abc123"
	res := New(&log).Run(context.Background(), helper("args", "--index-url", secret), ch)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	lines := collect(ch)
	for _, s := range []string{log.String(), lines[0].Text} {
		if strings.Contains(s, "s3cr3t") || strings.Contains(s, "abc123") || strings.Contains(s, "alice") {
			t.Fatalf("secret leaked: %s", s)
		}
		if !strings.Contains(s, "https://***@mirror.example.com/simple?token=***") {
			t.Fatalf("redacted URL missing: %s", s)
		}
	}
	if !strings.Contains(log.String(), "$ ") || !strings.Contains(log.String(), "exit 0 after") {
		t.Fatalf("log lacks command or exit:\n%s", log.String())
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:tok@host/x":                 "https://***@host/x",
		"http://tok@127.0.0.1:8080/whl":           "http://***@127.0.0.1:8080/whl",
		"see https://h/x?a=1&token=zz&b=2 now":    "see https://h/x?a=1&token=***&b=2 now",
		"https://h/x?API_KEY=k1":                  "https://h/x?API_KEY=***",
		"plain https://download.pytorch.org/whl/": "plain https://download.pytorch.org/whl/",
		"user@example.com wrote":                  "user@example.com wrote",
	} {
		if got := urls.Redact(in); got != want {
			t.Errorf("urls.Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseProgress(t *testing.T) {
	if p, ok := ParseProgress("Progress 123 of 456"); !ok || p != (Progress{Done: 123, Total: 456}) {
		t.Fatalf("%v %v", p, ok)
	}
	for _, bad := range []string{"", "Progress", "Progress x of 4", "Progress 1 of", "Downloading torch", "Progress -1 of 3"} {
		if _, ok := ParseProgress(bad); ok {
			t.Errorf("ParseProgress(%q) ok", bad)
		}
	}
}

func TestQuoteArgv(t *testing.T) {
	if got := QuoteArgv([]string{"pip", "install", "a b", "x&y"}); got != `pip install "a b" "x&y"` {
		t.Fatal(got)
	}
}

func TestStdoutWriterGetsEverything(t *testing.T) {
	var out bytes.Buffer
	c := helper("many", "20000")
	c.Stdout = &out
	ch := make(chan Line, 1)
	if res := New(nil).Run(context.Background(), c, ch); res.Err != nil {
		t.Fatal(res.Err)
	}
	if n := strings.Count(out.String(), "\n"); n != 20000 {
		t.Fatalf("Stdout got %d of 20000 lines", n)
	}
}
