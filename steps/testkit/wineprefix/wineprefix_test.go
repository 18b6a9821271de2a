package wineprefix

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/testkit/gobuild"
)

const hello = `package main

import (
	"crypto/rand"
	"fmt"
)

func main() {
	b := make([]byte, 16)
	rand.Read(b)
	fmt.Printf("random %x\n", b)
}
`

// TestPrepareFreshPrefix boots an empty prefix, installs the shim built from testdata/wine and runs a
// Go Windows program (crypto/rand goes through ProcessPrng) in it; on Wine 8, without the shim the same
// program does not start (logged when it does: a newer Wine has the DLL). Skips without wine or mingw-w64, except
// under CI=true, where it fails.
func TestPrepareFreshPrefix(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: boots a Wine prefix (~20 s)")
	}
	if why := Missing(); why != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and %s", why)
		}
		t.Skip(why)
	}
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "hello.go")
	if err := os.WriteFile(src, []byte(hello), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := gobuild.Build(t, gobuild.Options{Package: src, Dir: dir, Out: filepath.Join(dir, "hello.exe"), Env: []string{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0", "GO111MODULE=off"}})

	prefix := filepath.Join(dir, "prefix")
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "WINEPREFIX=" + prefix, "WINEDEBUG=-all", "WINEDLLOVERRIDES=winemenubuilder.exe=d"}
	t.Cleanup(func() {
		k := exec.Command("wineserver", "-k")
		k.Env = env
		_ = k.Run()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	if err := Prepare(ctx, root, prefix, env); err != nil {
		t.Fatal(err)
	}
	dll := filepath.Join(System32(prefix), "bcryptprimitives.dll")
	if _, err := os.Stat(dll); err != nil {
		t.Fatalf("no shim in the prefix: %v", err)
	}

	run := func() (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "wine", exe)
		// Files, not pipes: Wine's services started by the first process outlive it.
		log, err := os.CreateTemp(dir, "wine-*.log")
		if err != nil {
			t.Fatal(err)
		}
		defer log.Close()
		cmd.Env, cmd.Stdout, cmd.Stderr = env, log, log
		err = cmd.Run()
		b, _ := os.ReadFile(log.Name())
		return string(b), err
	}
	out, err := run()
	if err != nil || !strings.HasPrefix(out, "random ") {
		t.Fatalf("hello.exe in the prepared prefix: %v\n%s", err, out)
	}
	if err := os.Remove(dll); err != nil {
		t.Fatal(err)
	}
	if out, err := run(); err == nil && strings.HasPrefix(out, "random ") {
		// A Wine newer than Debian 12's 8.0 has the real DLL; the shim is then harmless, and not needed.
		t.Logf("hello.exe ran without the shim too (%q): this Wine has its own bcryptprimitives.dll", out)
	}
}
