package main

// The study database misused: read by read-only commands, another program's, corrupt, not
// writable, tampered with, deleted under a running study (issue 11.6).

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/glebarez/sqlite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

func fileHash(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return sha256.Sum256(b)
}

// TestReadOnlyCommandsChangeNothing: studies list/show, export, explain and report neither
// write the database nor leave -wal/-shm files, and a SQLite file of another program is refused
// instead of getting gctune's tables (issue 11.6).
func TestReadOnlyCommandsChangeNothing(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	optimizeTiny(t, db, "t", 3)
	before := fileHash(t, db)
	for _, args := range [][]string{
		{"studies", "list"}, {"studies", "show", "t"}, {"export", "t"}, {"explain", "t"},
		{"report", "t", "-o", filepath.Join(dir, "r.html"), "--sweep-points", "3"},
	} {
		_, errOut, code := gctune(t, append(args, "--storage", db)...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		assert.NoFileExists(t, db+"-wal", args)
		assert.NoFileExists(t, db+"-shm", args)
		assert.Equal(t, before, fileHash(t, db), "%v changed the database", args)
	}

	foreign := filepath.Join(dir, "app.db")
	execSQL(t, foreign, "CREATE TABLE things (x INTEGER)")
	before = fileHash(t, foreign)
	for _, args := range [][]string{{"studies", "list"}, {"studies", "show", "t"}, {"export", "t"}, {"explain", "t"}} {
		_, errOut, code := gctune(t, append(args, "--storage", foreign)...)
		assert.Equal(t, cmdutil.ExitUsage, code, args)
		assert.Equal(t, `gctune: "`+foreign+`" is not a gctune study database (no study tables)`+"\n", errOut)
	}
	assert.Equal(t, before, fileHash(t, foreign), "a foreign database was changed")
	assert.NoFileExists(t, foreign+"-wal")
}

// TestCorruptDatabaseExit2: a file that is not a database is one line naming it and exit 2 in
// every command that opens the storage, saying it is not a gctune study database, without
// SQLite's result code (issue 31: "file is not a database (26)").
func TestCorruptDatabaseExit2(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.db")
	require.NoError(t, os.WriteFile(bad, []byte(strings.Repeat("garbage ", 1000)), 0o644))
	for _, args := range [][]string{
		{"studies", "list"}, {"studies", "show", "t"}, {"studies", "delete", "t"},
		{"export", "t"}, {"explain", "t"}, {"report", "t", "-o", filepath.Join(dir, "r.html")},
		{"optimize", "testdata/tiny.yaml", "--trials", "1"}, {"resume", "t"},
		{"study", "create", "t", "testdata/tiny.yaml"}, {"worker", "--study", "t"},
	} {
		_, errOut, code := gctune(t, append(args, "--storage", bad)...)
		assert.Equal(t, cmdutil.ExitUsage, code, "%v: %s", args, errOut)
		assert.Contains(t, errOut, bad, args)
		assert.Equal(t, "gctune: "+bad+" is not a gctune study database (not a SQLite file at all)\n", errOut, args)
	}
}

// TestReadOnlyDatabaseFileLeavesNoWAL: reading a study database the user cannot write (another
// user's, or chmod 444) leaves no -wal/-shm files: SQLite creates them for a WAL database and a
// read-only connection cannot remove them (issue 11.6). As root the test runs gctune as user
// nobody (setpriv), since root can write any file.
func TestReadOnlyDatabaseFileLeavesNoWAL(t *testing.T) {
	// Not t.TempDir: its parent is private to this user, and nobody must reach the file.
	dir, err := os.MkdirTemp("", "gctune-readonly-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o777))
	db := filepath.Join(dir, "s.db")
	optimizeTiny(t, db, "t", 2, "-q")
	require.NoError(t, os.Chmod(db, 0o444))
	for _, args := range [][]string{{"studies", "list"}, {"export", "t"}} {
		args = append(args, "--storage", db)
		if os.Geteuid() == 0 {
			setpriv, err := exec.LookPath("setpriv")
			if err != nil {
				t.Skip("root without setpriv: cannot read as another user")
			}
			cmd := exec.Command(setpriv, append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", os.Args[0]}, args...)...)
			cmd.Env = append(os.Environ(), "GCTUNETEST_MAIN=1", "HOME="+dir)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil && strings.Contains(string(out), "ermission denied") && !strings.Contains(string(out), "gctune:") {
				t.Skipf("user nobody cannot run the test binary: %s", out)
			}
			require.NoError(t, err, "%s", out)
		} else {
			gctuneOK(t, args...)
		}
		assert.NoFileExists(t, db+"-wal", args)
		assert.NoFileExists(t, db+"-shm", args)
	}
}

// TestTamperedTrialValueNeverBest: a trial whose stored value was set to 0, a negative number
// or infinity never becomes the best ("+Infx faster"), and every JSON output stays valid
// (issue 11.6).
func TestTamperedTrialValueNeverBest(t *testing.T) {
	for _, tampered := range []string{"0", "-1", "9e999"} {
		t.Run(tampered, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "s.db")
			optimizeTiny(t, db, "t", 4, "-q")
			execSQL(t, db, "UPDATE trials SET value = "+tampered+" WHERE number = 3",
				"UPDATE trial_values SET value = "+tampered+" WHERE trial_id = (SELECT trial_id FROM trials WHERE number = 3)")

			for _, args := range [][]string{{"studies", "list"}, {"studies", "show", "t"}, {"export", "t"}, {"export", "t", "--pareto"}} {
				out, errOut, code := gctune(t, append(append([]string{"--json"}, args...), "--storage", db)...)
				require.Equal(t, 0, code, "%v: %s", args, errOut)
				require.True(t, json.Valid([]byte(out)), "%v: %s", args, out)
				assert.NotContains(t, out, "Inf", args)
				var doc any
				require.NoError(t, json.Unmarshal([]byte(out), &doc))
				assert.NotContains(t, out, `"bestTrial": 3`, args)
				assert.NotContains(t, out, `"trial": 3,`, args)
			}
			out, _ := gctuneOK(t, "export", "t", "--format", "flags", "--storage", db)
			assert.False(t, strings.Contains(out, "Inf"), out)
		})
	}
}

// TestJSONOutputRefusesNonFinite: a document holding an infinite number (a damaged trial's
// speedup) is one error line, not a broken document.
func TestJSONOutputRefusesNonFinite(t *testing.T) {
	var out strings.Builder
	err := cmdutil.WriteJSON(&out, map[string]float64{"speedup": math.Inf(1)})
	require.Error(t, err)
	assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
	assert.Contains(t, err.Error(), "+Inf is not a number JSON can hold")
	assert.Empty(t, out.String())
}

// TestDeleteRunningStudyRefused: `studies delete` of a study with running trials is refused
// (its optimizer would die on a foreign key), unless --force (issue 11.6).
func TestDeleteRunningStudyRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	optimizeTiny(t, db, "t", 2, "-q")
	// A trial left RUNNING, as by a worker that is still at it.
	execSQL(t, db, "UPDATE trials SET state = 'RUNNING' WHERE number = 1")

	_, errOut, code := gctune(t, "studies", "delete", "t", "--storage", db)
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Contains(t, errOut, `study "t" has 1 running trial(s)`)
	_, _, code = gctune(t, "studies", "show", "t", "--storage", db)
	assert.Equal(t, 0, code, "the study is still there")

	_, errOut = gctuneOK(t, "studies", "delete", "t", "--force", "--storage", db)
	_, _, code = gctune(t, "studies", "show", "t", "--storage", db)
	assert.Equal(t, cmdutil.ExitUsage, code, "deleted")
}

// TestStoragePasswordNeverPrinted: every storage shape of issue 22 that holds the password
// Pw9xQz fails (nothing listens on 127.0.0.1:1), in every command that opens a study, one line,
// exit 2, and the password appears in neither output. The shapes: a URL with no host, the
// scheme without its slashes (not a SQLite file name), a query password with a space, a
// percent-encoded query key, and a config file whose storage is a list (never echoed).
func TestStoragePasswordNeverPrinted(t *testing.T) {
	const secret = "Pw9xQz"
	tiny, err := filepath.Abs("testdata/tiny.yaml")
	require.NoError(t, err)
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	shapes := [][]string{
		{"--storage", "postgres://u:" + secret},
		{"--storage", "postgres://u:" + secret + "/db"},
		{"--storage", "postgres:/u:" + secret + "@127.0.0.1:1/db"},
		{"--storage", "postgres:u:" + secret + "@127.0.0.1:1/db"},
		{"--storage", "POSTGRESQL:u:" + secret + "@127.0.0.1:1/db"},
		{"--storage", "postgres://u@127.0.0.1:1/db?password=abc " + secret},
		{"--storage", "postgres://u@127.0.0.1:1/db?pass%77ord=" + secret},
		{"--storage", "postgres://u@127.0.0.1:1/db?password=" + secret + "&sslmode=bogus"},
		{"--storage", "postgres://u@127.0.0.1:1/db?sslmode=disable&password=" + secret + "#x"},
		{"--storage", "host=127.0.0.1 password=abc " + secret},
		{"--config", writeFile(t, "c.yaml", "storage: [postgres://u:"+secret+"@127.0.0.1:1/db]\n")},
		{"--config", writeFile(t, "c.yaml", "storage: {postgres://u:"+secret+"@127.0.0.1:1/db: 1}\n")},
		{"--config", writeFile(t, "c.yaml", "storage: \"postgres://u@127.0.0.1:1/db?password=abc "+secret+"\"\n")},
	}
	commands := [][]string{
		{"studies", "list"}, {"studies", "show", "t"}, {"studies", "delete", "t"},
		{"export", "t"}, {"explain", "t"}, {"report", "t", "-o", filepath.Join(dir, "r.html")},
		{"optimize", tiny, "--trials", "1"}, {"resume", "t"},
		{"study", "create", "t", tiny}, {"worker", "--study", "t", "--retries", "1"},
	}
	for _, shape := range shapes {
		for _, args := range commands {
			all := append(append([]string{}, args...), shape...)
			out, errOut, code := gctune(t, all...)
			assert.Equal(t, cmdutil.ExitUsage, code, "%q: %s", all, errOut)
			assert.NotContains(t, out+errOut, secret, "%q", all)
			assert.Equal(t, 1, countLines(errOut), "%q: one line: %s", all, errOut)
		}
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "files created (a URL taken for a SQLite file name?)")
}

// TestWritingCommandsRefuseForeignDatabase: optimize, resume, study create, worker and studies
// delete refuse a SQLite file of another program (tables of its own, none of gctune's): one
// line, exit 2, and the file left byte for byte as it was, with its own tables only (issue 22:
// `resume x --storage other.db` left 8 gctune tables in it).
func TestWritingCommandsRefuseForeignDatabase(t *testing.T) {
	dir := t.TempDir()
	foreign := filepath.Join(dir, "other.db")
	execSQL(t, foreign, "CREATE TABLE things (x INTEGER)", "INSERT INTO things VALUES (1)")
	before := fileHash(t, foreign)
	for _, args := range [][]string{
		{"resume", "x"}, {"optimize", "testdata/tiny.yaml", "--trials", "1", "--study", "x"},
		{"study", "create", "x", "testdata/tiny.yaml"}, {"worker", "--study", "x"},
		{"studies", "delete", "x"}, {"studies", "delete", "x", "--force"},
	} {
		_, errOut, code := gctune(t, append(args, "--storage", foreign)...)
		assert.Equal(t, cmdutil.ExitUsage, code, "%v: %s", args, errOut)
		assert.Equal(t, `gctune: "`+foreign+`" is not a gctune study database (1 table of another program, no study tables): give gctune a file of its own`+"\n", errOut, args)
		assert.Equal(t, before, fileHash(t, foreign), "%v changed the file", args)
		assert.NoFileExists(t, foreign+"-wal", args)
		assert.NoFileExists(t, foreign+"-shm", args)
	}
	var tables []string
	g, err := gorm.Open(sqlite.Open(foreign), &gorm.Config{})
	require.NoError(t, err)
	require.NoError(t, g.Raw("SELECT name FROM sqlite_master WHERE type = 'table'").Scan(&tables).Error)
	assert.Equal(t, []string{"things"}, tables)
	sqlDB, _ := g.DB()
	sqlDB.Close()

	// An empty file, and a gctune database, are still opened for writing.
	empty := filepath.Join(dir, "empty.db")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	optimizeTiny(t, empty, "t", 1, "-q")
	optimizeTiny(t, empty, "u", 1, "-q")
}

// copyFile copies the file src to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(dst, b, 0o644))
}

// TestMalformedStudyExit2: a damaged file ("database disk image is malformed": a page of the
// trials table overwritten) and tampered study rows (a text trial value or parameter, a bad
// problem hash, bogus chunk counts, an unknown state, a distribution that does not decode)
// exit 2 in every command that reads the study, with one error line that names the database
// (issue 22: they exited 1).
func TestMalformedStudyExit2(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	optimizeTiny(t, good, "t", 3, "-q")
	cases := []struct {
		name   string
		damage func(t *testing.T, db string)
	}{
		{"malformed page", func(t *testing.T, db string) {
			var root int
			g, err := gorm.Open(sqlite.Open(db), &gorm.Config{})
			require.NoError(t, err)
			require.NoError(t, g.Raw("SELECT rootpage FROM sqlite_master WHERE name = 'trials'").Scan(&root).Error)
			sqlDB, _ := g.DB()
			sqlDB.Close()
			f, err := os.OpenFile(db, os.O_RDWR, 0)
			require.NoError(t, err)
			_, err = f.WriteAt([]byte(strings.Repeat("\xff", 200)), int64(root-1)*4096+8)
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}},
		{"text trial value", sqlDamage("UPDATE trials SET value = 'abc' WHERE number = 1")},
		{"text parameter", sqlDamage("UPDATE trial_params SET param_value = 'x' WHERE trial_id = 2")},
		{"bad problem hash", sqlDamage("UPDATE study_system_attributes SET value = '00' WHERE key = 'gctune:problem_sha256'")},
		{"chunk count too high", sqlDamage("UPDATE study_system_attributes SET value = '99' WHERE key = 'gctune:problem_chunks'")},
		{"negative chunk count", sqlDamage("UPDATE study_system_attributes SET value = '-3' WHERE key = 'gctune:problem_chunks'")},
		{"chunk count not a number", sqlDamage("UPDATE study_system_attributes SET value = 'two' WHERE key = 'gctune:problem_chunks'")},
		{"unknown state", sqlDamage("UPDATE trials SET state = 'BOGUS' WHERE number = 1")},
		{"bad distribution", sqlDamage("UPDATE trial_params SET distribution_json = '{' WHERE trial_id = 2")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "s.db")
			for _, args := range [][]string{
				{"studies", "show", "t"}, {"export", "t"}, {"explain", "t"},
				{"report", "t", "-o", filepath.Join(dir, "r.html"), "--sweep-points", "3"},
				{"resume", "t", "--more", "1", "-q"},
			} {
				copyFile(t, good, db)
				c.damage(t, db)
				_, errOut, code := gctune(t, append(args, "--storage", db)...)
				assert.Equal(t, cmdutil.ExitUsage, code, "%v: %s", args, errOut)
				assert.Equal(t, 1, strings.Count(errOut, "gctune: "), "%v: one error line: %s", args, errOut)
				assert.Contains(t, lastLine(errOut), db, "%v: the error names the database", args)
			}
		})
	}
}

// sqlDamage returns a damage of TestMalformedStudyExit2 that runs statements on the database.
func sqlDamage(statements ...string) func(t *testing.T, db string) {
	return func(t *testing.T, db string) { execSQL(t, db, statements...) }
}

// TestDefaultStorage: without --storage the study database is gctune.db in the user's data
// folder ($XDG_DATA_HOME/gctune, else ~/.local/share/gctune), found from any working folder;
// a ./gctune.db in the working folder is still used, and a named database always; every
// command that opens a study prints the database's path once on standard error, also with
// --json (issue 21: `gctune export` from another folder said the database does not exist).
func TestDefaultStorage(t *testing.T) {
	tiny, err := filepath.Abs("testdata/tiny.yaml")
	require.NoError(t, err)
	root := t.TempDir()
	data, home, work, other := filepath.Join(root, "data"), filepath.Join(root, "home"), filepath.Join(root, "work"), filepath.Join(root, "other")
	for _, d := range []string{home, work, other} {
		require.NoError(t, os.Mkdir(d, 0o755))
	}
	t.Setenv("XDG_DATA_HOME", data)
	t.Setenv("HOME", home)
	t.Chdir(work)
	db := filepath.Join(data, "gctune", "gctune.db")
	note := "study database: " + db + "\n"

	_, errOut := gctuneOK(t, "optimize", tiny, "--trials", "2", "--workers", "1", "--study", "t", "-q")
	assert.FileExists(t, db)
	assert.Equal(t, 1, strings.Count(errOut, note), errOut)
	assert.NoFileExists(t, filepath.Join(work, "gctune.db"))
	st, err := os.Stat(filepath.Dir(db))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm(), "the data folder is private")

	t.Chdir(other)
	for _, args := range [][]string{
		{"studies", "list"}, {"studies", "show", "t"}, {"export", "t"}, {"explain", "t"},
		{"resume", "t", "--more", "1", "-q"}, {"study", "create", "u", tiny}, {"studies", "delete", "u"},
		{"report", "t", "-o", filepath.Join(other, "r.html"), "--sweep-points", "3"},
	} {
		_, errOut := gctuneOK(t, args...)
		assert.Equal(t, 1, strings.Count(errOut, note), "%v: %s", args, errOut)
		assert.NotContains(t, errOut, "study database: "+filepath.Join(other, "gctune.db"), args)
	}
	for _, args := range [][]string{{"studies", "list"}, {"studies", "show", "t"}, {"explain", "t"}, {"resume", "t", "-q"}} {
		out, errOut := gctuneOK(t, append([]string{"--json"}, args...)...)
		assert.Equal(t, 1, strings.Count(errOut, note), "%v --json: %s", args, errOut)
		assert.True(t, json.Valid([]byte(out)), "%v --json: standard output is the document alone", args)
	}
	assert.NoFileExists(t, filepath.Join(other, "gctune.db"))

	// A missing default database is named by its full path.
	t.Setenv("XDG_DATA_HOME", filepath.Join(root, "empty"))
	_, errOut, code := gctune(t, "export", "t")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, `gctune: database "`+filepath.Join(root, "empty", "gctune", "gctune.db")+`" does not exist`+"\n", errOut)

	// No XDG_DATA_HOME (or a relative one): ~/.local/share/gctune.
	for i, xdg := range []string{"", "relative/data"} {
		t.Setenv("XDG_DATA_HOME", xdg)
		_, errOut = gctuneOK(t, "study", "create", "h"+itoa(i), tiny)
		assert.Contains(t, errOut, "study database: "+filepath.Join(home, ".local", "share", "gctune", "gctune.db")+"\n")
	}
	t.Setenv("XDG_DATA_HOME", data)

	// A ./gctune.db in the working folder is used when present; a named database always.
	gctuneOK(t, "optimize", tiny, "--trials", "1", "--workers", "1", "--storage", "gctune.db", "--study", "here", "-q")
	out, errOut := gctuneOK(t, "studies", "list")
	assert.Contains(t, errOut, "study database: "+filepath.Join(other, "gctune.db")+"\n")
	assert.Contains(t, out, "here")
	assert.NotRegexp(t, `(?m)^t `, out, "the study t is in another database")
	_, errOut = gctuneOK(t, "studies", "list", "--storage", db)
	assert.Contains(t, errOut, note)
	_, errOut = gctuneOK(t, "studies", "list", "--config", writeFile(t, "c.yaml", "storage: "+db+"\n"))
	assert.Contains(t, errOut, note)
}

// runAsOtherUser runs gctune with args in dir as a user who cannot write what this process
// made: as root, user nobody (setpriv); otherwise this user, after the caller took its write
// permissions away. It returns the combined output and the exit code, and skips the test when
// nobody cannot run the test binary.
func runAsOtherUser(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	var cmd *exec.Cmd
	if os.Geteuid() == 0 {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			t.Skip("root without setpriv: cannot read as another user")
		}
		cmd = exec.Command(setpriv, append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", os.Args[0]}, args...)...)
	} else {
		cmd = exec.Command(os.Args[0], args...)
	}
	cmd.Env = append(os.Environ(), "GCTUNETEST_MAIN=1", "HOME="+dir, "XDG_DATA_HOME="+dir)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil && strings.Contains(string(out), "ermission denied") && !strings.Contains(string(out), "gctune:") {
		t.Skipf("user nobody cannot run the test binary: %s", out)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// TestReadOnlyCommandsUnwritableFolder: a study database in a folder the user cannot write
// (issue 22's probe: a root-owned 0644 s.db in a 0755 folder, read by another user) is read
// by studies list and show, export, explain and report, opened immutable (SQLite cannot make
// the -wal and -shm files a WAL database needs there: they said "attempt to write a readonly
// database"), and left as it was. A writing command refuses it in one line, exit 2.
func TestReadOnlyCommandsUnwritableFolder(t *testing.T) {
	// Not t.TempDir: its parent is private to this user, and nobody must reach the file.
	dir, err := os.MkdirTemp("", "gctune-unwritable-")
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = os.Chmod(dir, 0o755)
		_ = os.RemoveAll(dir)
	})
	db := filepath.Join(dir, "s.db")
	optimizeTiny(t, db, "t", 2, "-q")
	// As root the probe as written: 0644 in 0755, read by nobody. Otherwise this user
	// cannot write them.
	fileMode, dirMode := os.FileMode(0o644), os.FileMode(0o755)
	if os.Geteuid() != 0 {
		fileMode, dirMode = 0o444, 0o555
	}
	require.NoError(t, os.Chmod(db, fileMode))
	require.NoError(t, os.Chmod(dir, dirMode))
	before := fileHash(t, db)
	outDir, err := os.MkdirTemp("", "gctune-unwritable-out-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(outDir) })
	require.NoError(t, os.Chmod(outDir, 0o777))
	report := filepath.Join(outDir, "r.html")
	for _, args := range [][]string{
		{"studies", "list"}, {"studies", "show", "t"}, {"export", "t"}, {"explain", "t"},
		{"report", "t", "-o", report, "--sweep-points", "3"},
	} {
		out, code := runAsOtherUser(t, dir, append(args, "--storage", db)...)
		assert.Equal(t, 0, code, "%v: %s", args, out)
		assert.NotContains(t, out, "readonly", args)
		assert.NoFileExists(t, db+"-wal", args)
		assert.NoFileExists(t, db+"-shm", args)
		assert.Equal(t, before, fileHash(t, db), "%v changed the database", args)
	}
	out, code := runAsOtherUser(t, dir, "resume", "t", "--more", "1", "--storage", db)
	assert.Equal(t, cmdutil.ExitUsage, code, out)
	assert.Equal(t, 1, strings.Count(out, "gctune: "), out)
	assert.Equal(t, before, fileHash(t, db))
}

// TestStorageFIFO: a FIFO given as --storage, with no writer, is refused at once in one line,
// exit 2, by the commands that read a study and those that write one (SQLite blocked in its
// first read of the file, and the first SIGINT did not stop it, issue 22). Should it block
// again, the test sends one SIGINT, which must stop it.
func TestStorageFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "s.db")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	tiny, err := filepath.Abs("testdata/tiny.yaml")
	require.NoError(t, err)
	for _, args := range [][]string{
		{"studies", "list"}, {"export", "t"}, {"explain", "t"},
		{"optimize", tiny, "--trials", "1"}, {"resume", "t"}, {"study", "create", "t", tiny},
		{"worker", "--study", "t"}, {"studies", "delete", "t"},
	} {
		cmd := gctuneCommand(nil, append(args, "--storage", fifo)...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		require.NoError(t, cmd.Start())
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var werr error
		select {
		case werr = <-done:
		case <-time.After(30 * time.Second):
			require.NoError(t, cmd.Process.Signal(os.Interrupt))
			select {
			case werr = <-done:
				t.Errorf("%v: blocked on the FIFO until SIGINT", args)
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("%v: blocked on the FIFO past a SIGINT", args)
			}
		}
		var ee *exec.ExitError
		require.ErrorAs(t, werr, &ee, "%v: %s", args, out.String())
		assert.Equal(t, cmdutil.ExitUsage, ee.ExitCode(), "%v: %s", args, out.String())
		assert.Equal(t, `gctune: database "`+fifo+`" is not a regular file (a named pipe, device or socket), not a SQLite file`+"\n", out.String(), args)
	}
}

// TestStudiesListBeforeAnyStudy: before the first study, studies list is no error: it says
// there are none yet and where optimize will keep them, and --json is an empty list; the
// database is not created (issue 31: it exited 2).
func TestStudiesListBeforeAnyStudy(t *testing.T) {
	root := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(root, "data"))
	t.Chdir(root)
	db := filepath.Join(root, "data", "gctune", "gctune.db")
	out, errOut := gctuneOK(t, "studies", "list")
	assert.Equal(t, "no studies yet: gctune optimize will keep them in "+db+"\n", out)
	assert.Empty(t, errOut)
	out, _ = gctuneOK(t, "--json", "studies", "list")
	assert.JSONEq(t, "[]", out)
	named := filepath.Join(root, "named.db")
	out, _ = gctuneOK(t, "studies", "list", "--storage", named)
	assert.Equal(t, "no studies yet: gctune optimize will keep them in "+named+"\n", out)
	assert.NoFileExists(t, db)
	assert.NoFileExists(t, named)
}
