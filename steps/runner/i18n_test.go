package runner

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/i18n/i18ntest"
)

// A real child that fails, one that is too long, one whose lines a full channel drops, and one
// that never starts: what the runner says about each is Chinese.
func TestRunnerTextsInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	res := New(nil).Run(context.Background(), helper("exit3"), make(chan Line, 10))
	var ee *ExitCodeError
	if !errors.As(res.Err, &ee) || res.Err.Error() != "“helper exit3”退出，退出码 3" {
		t.Fatalf("err = %v", res.Err)
	}
	i18ntest.NoEnglishProse(t, "exit", res.Err.Error())

	ch := make(chan Line, 10)
	New(nil).Run(context.Background(), helper("long"), ch)
	lines := collect(ch)
	if len(lines) != 2 || !strings.Contains(lines[0].Text, "本行其余") || !strings.Contains(lines[0].Text, "字节未保留") {
		t.Fatalf("long line ends %q", lines[0].Text[len(lines[0].Text)-60:])
	}
	i18ntest.NoEnglishProse(t, "cut line", lines[0].Text[MaxLineBytes:])

	small := make(chan Line, 2)
	rec := &record{name: "x", lines: small}
	for i := 0; i < 5; i++ {
		rec.line("stdout", "l")
	}
	<-small
	<-small
	rec.line("stdout", "l5")
	note := <-small
	if note.Text != "[gpuwiz: 有 3 行未显示，日志中有完整内容]" {
		t.Fatalf("note %q", note.Text)
	}
	i18ntest.NoEnglishProse(t, "skipped note", note.Text)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res = New(nil).Run(ctx, helper("args"), nil)
	if !errors.Is(res.Err, context.Canceled) || !strings.HasPrefix(res.Err.Error(), "“helper args”未启动：") {
		t.Fatalf("err = %v", res.Err)
	}

	res = New(nil).Run(context.Background(), Cmd{Name: "gpuwiz-no-such-program", Argv: []string{"gpuwiz-no-such-program"}}, nil)
	if res.Err == nil || !strings.HasPrefix(res.Err.Error(), "无法启动“gpuwiz-no-such-program”：") {
		t.Fatalf("err = %v", res.Err)
	}
}

func TestSkippedNoteStartsWithThePrefixInEveryLanguage(t *testing.T) {
	for _, l := range i18n.Langs {
		for _, n := range []int{1, 3} {
			if s := i18n.NIn(l, "runner.skipped", n); !strings.HasPrefix(s, SkippedNotePrefix) {
				t.Errorf("%s: %q", l, s)
			}
		}
	}
}

// English stays as it was: "NAME exited with code N", and the notes in the stream.
func TestRunnerEnglishUnchanged(t *testing.T) {
	res := New(nil).Run(context.Background(), helper("exit3"), nil)
	if res.Err == nil || res.Err.Error() != "helper exit3 exited with code 3" {
		t.Fatalf("err = %v", res.Err)
	}
	if s := i18n.N("runner.line_cut", 5); s != "[gpuwiz: 5 more bytes of this line not kept]" {
		t.Fatalf("%q", s)
	}
}
