package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as the child: GPUWIZ_RUNNER_HELPER picks what it does.
func TestMain(m *testing.M) {
	switch os.Getenv("GPUWIZ_RUNNER_HELPER") {
	case "":
		os.Exit(m.Run())
	case "args":
		b, _ := json.Marshal(os.Args[1:])
		fmt.Println(string(b))
	case "exit3":
		fmt.Fprintln(os.Stderr, "failing on purpose")
		os.Exit(3)
	case "many":
		n, _ := strconv.Atoi(os.Args[1])
		for i := 0; i < n; i++ {
			fmt.Printf("line %d\n", i)
		}
	case "long":
		fmt.Println(strings.Repeat("x", 3*MaxLineBytes))
		fmt.Println("after")
	case "progress":
		// pip's rich bar redraws with \r; raw mode prints lines
		fmt.Print("Progress 1 of 4\rProgress 2 of 4\r\nProgress 4 of 4\n")
	case "wait-file":
		fmt.Println("ready")
		for i := 0; i < 1000; i++ {
			if _, err := os.Stat(os.Args[1]); err == nil {
				fmt.Println("saw file")
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		os.Exit(9)
	case "spawn":
		// a grandchild that would outlive a plain kill of the child
		gc := exec.Command(os.Args[0])
		gc.Env = append(os.Environ(), "GPUWIZ_RUNNER_HELPER=sleep")
		if err := gc.Start(); err != nil {
			os.Exit(7)
		}
		_ = os.WriteFile(os.Args[1], []byte(fmt.Sprintf("%d %d", os.Getpid(), gc.Process.Pid)), 0o644)
		fmt.Println("spawned")
		time.Sleep(time.Minute)
	case "sleep":
		time.Sleep(time.Minute)
	}
	os.Exit(0)
}

func helper(mode string, args ...string) Cmd {
	return Cmd{Name: "helper " + mode, Argv: append([]string{os.Args[0]}, args...), Env: append(os.Environ(), "GPUWIZ_RUNNER_HELPER="+mode)}
}
