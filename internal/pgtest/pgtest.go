package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Database is the name of the database Start creates.
const Database = "gctune"

// startTimeout bounds one pg_ctl start, stop or restart.
const startTimeout = 60 * time.Second

// Server is one private PostgreSQL server started by StartServer.
type Server struct {
	bin     string // directory holding initdb, pg_ctl, createdb, psql
	dir     string // temporary directory: data/ and the unix socket
	port    int
	runAs   string // system user the server runs as, "" for the current user
	stopped bool
}

// Start starts a private PostgreSQL server for t and returns the URL of an empty database on
// it. The server is stopped and its files removed when t ends.
func Start(t testing.TB) string {
	t.Helper()
	return StartServer(t).URL()
}

// StartServer is Start returning the Server, for tests that stop, restart or inspect it.
func StartServer(t testing.TB) *Server {
	t.Helper()
	bin, err := findBin()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pgtest: postgres not installed: %v", err)
		}
		t.Skipf("postgres not installed: %v", err)
	}
	s := &Server{bin: bin}
	if os.Geteuid() == 0 {
		s.runAs = "postgres"
	}
	if err := s.init(); err != nil {
		s.remove()
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		if !s.stopped {
			_ = s.pgctl("stop", "-m", "immediate")
		}
		s.remove()
	})
	// A free port can be taken by someone else between probing and listening: retry.
	for attempt := 0; ; attempt++ {
		s.port, err = freePort()
		if err == nil {
			err = s.start()
		}
		if err == nil {
			break
		}
		if attempt == 4 {
			t.Fatalf("pgtest: %v\n%s", err, s.logTail())
		}
	}
	if out, err := s.run("createdb", "-h", "127.0.0.1", "-p", strconv.Itoa(s.port), "-U", "postgres", "-S", "file_copy", Database); err != nil {
		t.Fatalf("pgtest: createdb: %v: %s", err, out)
	}
	return s
}

// URL returns the URL of the database Start created.
func (s *Server) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, Database)
}

// CreateDB creates another empty database on the server and returns its URL.
func (s *Server) CreateDB(t testing.TB, name string) string {
	t.Helper()
	if out, err := s.run("createdb", "-h", "127.0.0.1", "-p", strconv.Itoa(s.port), "-U", "postgres", "-S", "file_copy", name); err != nil {
		t.Fatalf("pgtest: createdb %s: %v: %s", name, err, out)
	}
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, name)
}

// Port returns the TCP port the server listens on (127.0.0.1).
func (s *Server) Port() int { return s.port }

// Dir returns the server's temporary directory: the cluster is in Dir()/data, the unix
// socket and the server log (server.log) in Dir().
func (s *Server) Dir() string { return s.dir }

// Stop stops the server at once (pg_ctl stop -m immediate), as a crash would.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	if err := s.pgctl("stop", "-m", "immediate"); err != nil {
		t.Fatalf("pgtest: stop: %v", err)
	}
	s.stopped = true
}

// Restart stops the server at once, if it runs, and starts it again on the same port with
// the same data.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	if !s.stopped {
		if err := s.pgctl("stop", "-m", "immediate"); err != nil {
			t.Fatalf("pgtest: stop: %v", err)
		}
		s.stopped = true
	}
	if err := s.start(); err != nil {
		t.Fatalf("pgtest: restart: %v\n%s", err, s.logTail())
	}
}

// Restart restarts the running server that serves rawURL (a URL Start returned): it asks the
// server for its data directory, stops it at once and starts it again with the same settings.
// A server that is already stopped cannot be found from its URL: use Server.Restart.
func Restart(t testing.TB, rawURL string) {
	t.Helper()
	bin, err := findBin()
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatalf("pgtest: bad url: %v", err)
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatalf("pgtest: url %q has no port", u.Redacted())
	}
	s := &Server{bin: bin, port: port}
	if os.Geteuid() == 0 {
		s.runAs = "postgres"
	}
	out, err := s.run("psql", "-h", u.Hostname(), "-p", u.Port(), "-U", "postgres", "-d", strings.TrimPrefix(u.Path, "/"),
		"-At", "-c", "SHOW data_directory")
	if err != nil {
		t.Fatalf("pgtest: cannot find the server's data directory: %v: %s", err, out)
	}
	s.dir = filepath.Dir(strings.TrimSpace(string(out)))
	s.Restart(t)
}

// init makes the temporary directory and the cluster.
func (s *Server) init() error {
	dir, err := os.MkdirTemp("", "gctune-pgtest-")
	if err != nil {
		return err
	}
	s.dir = dir
	// MkdirTemp makes 0700 directories; the server's user must reach its own.
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	if s.runAs != "" {
		u, err := user.Lookup(s.runAs)
		if err != nil {
			return fmt.Errorf("running as root needs the %q user: %w", s.runAs, err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return err
		}
	}
	out, err := s.run("initdb", "-D", filepath.Join(dir, "data"), "-U", "postgres", "-A", "trust",
		"-E", "UTF8", "--no-locale", "--no-sync", "--no-instructions")
	if err != nil {
		return fmt.Errorf("initdb: %w: %s", err, out)
	}
	return nil
}

// start starts the server on s.port and waits until it accepts connections.
func (s *Server) start() error {
	opts := strings.Join([]string{
		"-c listen_addresses=127.0.0.1",
		"-p " + strconv.Itoa(s.port),
		"-k " + s.dir,
		"-c fsync=off",
		// synchronous_commit stays on: with it off, an immediate stop or restart (the fault
		// tests' pg_ctl restart) forgets commits the server already acknowledged, and trial
		// numbers repeat. fsync=off is safe for that: the OS keeps what was written.
		"-c full_page_writes=off",
		"-c shared_buffers=16MB",
		"-c max_connections=200",
	}, " ")
	if err := s.pgctl("start", "-w", "-t", strconv.Itoa(int(startTimeout/time.Second)),
		"-l", filepath.Join(s.dir, "server.log"), "-o", opts); err != nil {
		return err
	}
	s.stopped = false
	return nil
}

func (s *Server) pgctl(args ...string) error {
	args = append([]string{"-D", filepath.Join(s.dir, "data")}, args...)
	out, err := s.run("pg_ctl", args...)
	if err != nil {
		return fmt.Errorf("pg_ctl %s: %w: %s", args[2], err, out)
	}
	return nil
}

// run runs one of the server's programs as the server's user.
func (s *Server) run(prog string, args ...string) ([]byte, error) {
	path := filepath.Join(s.bin, prog)
	var cmd *exec.Cmd
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout+10*time.Second)
	defer cancel()
	if s.runAs != "" {
		cmd = exec.CommandContext(ctx, "runuser", append([]string{"-u", s.runAs, "--", path}, args...)...)
	} else {
		cmd = exec.CommandContext(ctx, path, args...)
	}
	// Inherited libpq settings (PGHOST, PGPASSWORD, ...) must not reach the private server.
	env := os.Environ()[:0:0]
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") && !strings.HasPrefix(kv, "TZ=") {
			env = append(env, kv)
		}
	}
	// With TZ unset, initdb compares every file under /usr/share/zoneinfo to /etc/localtime
	// to name the server's time zone, which takes seconds.
	cmd.Env = append(env, "TZ=UTC")
	cmd.Dir = os.TempDir()
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	return out.Bytes(), err
}

func (s *Server) logTail() string {
	b, err := os.ReadFile(filepath.Join(s.dir, "server.log"))
	if err != nil {
		return ""
	}
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

func (s *Server) remove() {
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
	}
}

// findBin returns the directory holding the server binaries.
func findBin() (string, error) {
	var dirs []string
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		// Debian links some of them into /usr/local/bin or wraps them in /usr/bin: follow
		// the link to the directory that holds the whole set.
		if real, err := filepath.EvalSymlinks(p); err == nil {
			dirs = append(dirs, filepath.Dir(real))
		}
		dirs = append(dirs, filepath.Dir(p))
	}
	installed, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	// Newest major version first.
	sort.Slice(installed, func(i, j int) bool {
		return versionOf(installed[i]) > versionOf(installed[j])
	})
	dirs = append(dirs, installed...)
	for _, dir := range dirs {
		if hasTools(dir) {
			return dir, nil
		}
	}
	return "", errors.New("no directory holding initdb, pg_ctl, createdb and psql on PATH or under /usr/lib/postgresql/*/bin (apt-get install -y postgresql)")
}

// hasTools reports whether dir holds every program pgtest runs.
func hasTools(dir string) bool {
	for _, tool := range [...]string{"initdb", "pg_ctl", "createdb", "psql"} {
		if _, err := os.Stat(filepath.Join(dir, tool)); err != nil {
			return false
		}
	}
	return true
}

func versionOf(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
