//go:build !unix

package chromium

import "os/exec"

// setProcessGroup leaves cmd as it is: outside unix, cancelling kills the browser process only.
func setProcessGroup(cmd *exec.Cmd) {}
