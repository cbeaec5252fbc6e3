package outfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// DatabaseSuffixes are the names SQLite gives the files beside a database file: its
// write-ahead log, the shared-memory index of that log, and the rollback journal.
var DatabaseSuffixes = []string{"-wal", "-shm", "-journal"}

// CheckNotDatabaseFiles refuses an output that is one of the files SQLite keeps beside the
// database db (DatabaseSuffixes), whether or not that file exists now: writing a page over
// the live write-ahead log destroys commits, and a file written where the journal belongs
// would be taken for a hot journal and "rolled back" into the database at its next open. An
// output is that file when, after its symbolic links, it is the same file as one that
// exists, or has its name in the same directory. db is the database's path as given ("" or a
// database that cannot be examined: nothing to check); its symbolic links are followed too,
// since SQLite names the files after the database's real path. The error is an *Error naming
// the output.
func CheckNotDatabaseFiles(outputs []string, db string) error {
	if db == "" {
		return nil
	}
	names := []string{db}
	if real, err := filepath.EvalSymlinks(db); err == nil && real != db {
		names = append(names, real)
	}
	for _, out := range outputs {
		if out == "" {
			continue
		}
		t, err := resolve(out)
		if err != nil {
			continue // Check reports it
		}
		outDir, err := os.Stat(filepath.Dir(t.path))
		if err != nil {
			continue
		}
		outSt, outErr := os.Stat(t.path)
		for _, name := range names {
			dbDir, err := os.Stat(filepath.Dir(name))
			if err != nil {
				continue
			}
			for _, suffix := range DatabaseSuffixes {
				side := name + suffix
				same := os.SameFile(outDir, dbDir) && filepath.Base(t.path) == filepath.Base(side)
				if !same && outErr == nil {
					if st, err := os.Stat(side); err == nil {
						same = os.SameFile(outSt, st)
					}
				}
				if same {
					return &Error{Path: out, Err: fmt.Errorf("is the study database %s's %s file: not writing over it", db, suffix[1:])}
				}
			}
		}
	}
	return nil
}
