package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLongSampleInterrupted: SIGINT or SIGTERM while sample writes its export stops it, exit 130,
// the line saying so, and neither file nor any temporary file left (issue 35: sample ran on
// for 31-39 s and exited 0 with the whole file written). The signal is sent once the
// temporary CSV exists, so it lands in the middle of the writing.
// manyObjectsSpec is 300 MB of 64-byte objects at 1,000 objects a record: 4.7 k records, 4.7 M rows
// when sampled at 1/1.
const manyObjectsSpec = `name: many
resolution: 0.001
classes: [{name: A, size: 64}]
phases:
  - name: p
    allocate: 300MB
    mix:
      - {class: A, share: 1, lifetime: 1KiB}
`

func TestLongSampleInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a large export")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "X.csv")
			// Few records of many objects each: generated and simulated in a moment (even under
			// -race), written as millions of rows at 1/1, so the signal lands mid-write.
			spec := writeFile(t, "many.yaml", manyObjectsSpec)
			cmd, buf := gctuneProcess(t, nil, "sample", spec, "--rate", "1/1", "-o", out)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			deadline := time.After(3 * time.Minute) // a safety net for a hung test, not a bound
		wait:
			for {
				select {
				case err := <-done:
					t.Fatalf("sample ended before it wrote anything: %v: %s", err, buf)
				case <-deadline:
					_ = cmd.Process.Kill()
					t.Fatal("sample never started writing")
				case <-time.After(20 * time.Millisecond):
					if des, _ := os.ReadDir(dir); len(des) > 0 {
						break wait
					}
				}
			}
			require.NoError(t, cmd.Process.Signal(sig))
			select {
			case <-done:
			case <-time.After(3 * time.Minute):
				_ = cmd.Process.Kill()
				t.Fatal("sample did not stop")
			}
			assert.Equal(t, cmdutil.ExitInterrupted, cmd.ProcessState.ExitCode(), buf.String())
			assert.Equal(t, "gctune: interrupted: sample stopped before "+out+" and "+strings.TrimSuffix(out, ".csv")+".json were complete: neither written (run it again)\n", buf.String())
			des, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Empty(t, des, "no file, temporary or not, left")
		})
	}
}
