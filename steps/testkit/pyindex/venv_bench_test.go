package pyindex

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkVenvCreate is `python3 -m venv` with pip, as a test would do without the template.
func BenchmarkVenvCreate(b *testing.B) {
	base := b.TempDir()
	for i := 0; i < b.N; i++ {
		if _, err := CreateVenvDirect(b, filepath.Join(base, strconv.Itoa(i))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewVenvFromTemplate is NewVenv once the template exists: a copy with paths rewritten.
func BenchmarkNewVenvFromTemplate(b *testing.B) {
	base := b.TempDir()
	NewVenv(b, filepath.Join(base, "warm"))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		NewVenv(b, filepath.Join(base, strconv.Itoa(i)))
	}
}

func TestTemplateVenvRunsPipAtItsNewPath(t *testing.T) {
	v := NewVenv(t, filepath.Join(t.TempDir(), "copy & 中"))
	out := pyOut(t, v, "import sys, pip; print(sys.prefix)")
	if out != v.Root {
		t.Fatalf("sys.prefix %q, want %q", out, v.Root)
	}
	b, err := os.ReadFile(filepath.Join(v.Root, "bin", "pip"))
	if err != nil || string(b[:len("#!"+v.Root)]) != "#!"+v.Root {
		t.Fatalf("pip script shebang: %q %v", b[:40], err)
	}
}
