//go:build unix

package reference

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the backend in a process group of its own, so that
// killProcessGroup ends it and anything it started.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
