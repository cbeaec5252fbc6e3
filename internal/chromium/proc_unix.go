//go:build unix

package chromium

import (
	"os/exec"
	"syscall"
)

// setProcessGroup runs cmd in a process group of its own and makes cancelling it kill the whole
// group: the browser and the renderer, GPU and zygote processes it started.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
