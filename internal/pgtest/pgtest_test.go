package pgtest

import (
	"os/exec"
	"strings"
	"testing"
)

func TestStartRestart(t *testing.T) {
	s := StartServer(t)
	psql := func() string {
		t.Helper()
		cmd := exec.Command(s.bin+"/psql", s.URL(), "-At", "-c", "SELECT current_database()")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("psql: %v: %s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := psql(); got != Database {
		t.Fatalf("current_database() = %q, want %q", got, Database)
	}
	Restart(t, s.URL())
	if got := psql(); got != Database {
		t.Fatalf("after Restart: current_database() = %q", got)
	}
	s.Stop(t)
	if out, err := exec.Command(s.bin+"/psql", s.URL(), "-c", "SELECT 1").CombinedOutput(); err == nil {
		t.Fatalf("psql reached a stopped server: %s", out)
	}
	s.Restart(t)
	if got := psql(); got != Database {
		t.Fatalf("after Server.Restart: current_database() = %q", got)
	}
}
