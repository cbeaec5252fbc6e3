package outfile

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckNotDatabaseFiles: the -wal, -shm and -journal files beside a study database are
// refused as outputs, existing or not, by any name (a link, another path to the folder, a
// link to the database), and other files beside it are not (issue 35: report -o STUDY.db-wal
// and export -o STUDY.db-journal wrote over the live database's files).
func TestCheckNotDatabaseFiles(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	require.NoError(t, os.WriteFile(db, []byte("db"), 0o644))
	require.NoError(t, os.WriteFile(db+"-wal", []byte("wal"), 0o644))
	require.NoError(t, os.Symlink(db+"-wal", filepath.Join(dir, "link-to-wal")))
	require.NoError(t, os.Symlink(db, filepath.Join(dir, "link.db")))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	for _, out := range []string{
		db + "-wal", db + "-shm", db + "-journal",
		filepath.Join(dir, "sub", "..", "s.db-journal"),
		filepath.Join(dir, "link-to-wal"),
	} {
		err := CheckNotDatabaseFiles([]string{filepath.Join(dir, "ok.html"), out}, db)
		var oe *Error
		require.ErrorAs(t, err, &oe, out)
		assert.Equal(t, out, oe.Path)
		assert.Contains(t, err.Error(), "study database")
	}
	// Through a link to the database, SQLite names its files after the real path.
	require.Error(t, CheckNotDatabaseFiles([]string{db + "-shm"}, filepath.Join(dir, "link.db")))
	require.NoError(t, CheckNotDatabaseFiles([]string{db + "-other", db + ".html", filepath.Join(dir, "sub", "s.db-wal")}, db))
	require.NoError(t, CheckNotDatabaseFiles([]string{db + "-wal"}, ""))
}

// TestCheckRefusesDevicesThatKeepNothing: /dev/zero and /dev/urandom, by name or through a
// link, are no output (Check and Write alike); /dev/null and /dev/full stay outputs (issue 35).
func TestCheckRefusesDevicesThatKeepNothing(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil || runtime.GOOS != "linux" {
		t.Skip("Linux's devices only")
	}
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink("/dev/urandom", link))
	for _, p := range []string{"/dev/zero", "/dev/urandom", link} {
		err := Check(p)
		require.Error(t, err, p)
		assert.Contains(t, err.Error(), "is a device that keeps nothing written into it", p)
		assert.Error(t, Write(p, func(w io.Writer) error { _, err := w.Write([]byte("x")); return err }), p)
	}
	require.NoError(t, Check("/dev/null"))
	require.NoError(t, Check("/dev/full"))
	kind, err := Kind("/dev/null")
	require.NoError(t, err)
	assert.Equal(t, "device", kind)
	kind, err = Kind(filepath.Join(t.TempDir(), "new"))
	require.NoError(t, err)
	assert.Equal(t, "", kind)
}
