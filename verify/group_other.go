//go:build !unix

package verify

import "os/exec"

// setGroup does nothing where process groups do not exist.
func setGroup(*exec.Cmd) {}

// killGroup kills the process (its children may outlive it where there are no process groups).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
