//go:build unix

package verify

import (
	"os/exec"
	"syscall"
)

// setGroup starts the command in a process group of its own, so that killGroup ends the
// whole tree (a shell and the VM it started), and the terminal's SIGINT reaches gctune only.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the command's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
