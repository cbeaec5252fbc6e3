package cmdutil

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/outfile"
)

// Beside lists the files a command writes beside an output it was given (sample writes the
// metadata beside its CSV), nil when none: such outputs are checked together and must all be
// regular files, written as files renamed into place together.
type Beside func(path string) []string

// CheckOutputs checks, before the command does any work, the flags cmd declared (Declare) as
// naming a file it writes, with outfile.Check, with the files written beside each (beside, nil
// for none), and those naming a directory it writes files into (CheckOutputDir), so an
// unwritable output is found in a second, not after a long search or report. Errors are
// *outfile.Error (exit code 2) behind the flag's name.
func CheckOutputs(cmd *cobra.Command, beside Beside) error {
	files, dirs := OutputsOf(cmd)
	for _, name := range files {
		f := cmd.Flags().Lookup(name)
		if f == nil || f.Value.String() == "" {
			continue
		}
		if err := outfile.Check(f.Value.String()); err != nil {
			return fmt.Errorf("--%s: %w", name, err)
		}
		if beside == nil {
			continue
		}
		also := beside(f.Value.String())
		for _, p := range also {
			if err := outfile.Check(p); err != nil {
				return fmt.Errorf("--%s: %w", name, err)
			}
		}
		if err := checkRegularFiles(cmd.Name(), append([]string{f.Value.String()}, also...)); err != nil {
			return fmt.Errorf("--%s: %w", name, err)
		}
	}
	for _, name := range dirs {
		f := cmd.Flags().Lookup(name)
		if f == nil || f.Value.String() == "" {
			continue
		}
		if err := CheckOutputDir(f.Value.String()); err != nil {
			return fmt.Errorf("--%s: %w", name, err)
		}
	}
	return nil
}

// checkRegularFiles refuses an output group (a file and those written beside it) of which one
// is a named pipe, device or socket: the group is written as files renamed into place
// together, and opening a FIFO nobody reads would block with the rest written (issue 35: a
// FIFO X.json hung sample past a minute).
func checkRegularFiles(command string, group []string) error {
	for _, p := range group {
		kind, err := outfile.Kind(p)
		if err != nil {
			return err
		}
		if kind != "" {
			return &outfile.Error{Path: p, Err: fmt.Errorf("is a %s: %s writes regular files only, %s", kind, command, andList(group))}
		}
	}
	return nil
}

// CheckOutputsNotInputs refuses, before any work, an output of cmd (its declared output files,
// and those written beside each: beside) that is one of inputs, by device and inode, or one
// of the files the SQLite study database db keeps (db itself, -wal, -shm, -journal:
// outfile.CheckNotDatabaseFiles; "" for none). `report --storage r.db -o r.db` would write the
// page over the database. The error is an *outfile.Error behind the flag's name (exit code 2).
func CheckOutputsNotInputs(cmd *cobra.Command, inputs []string, db string, beside Beside) error {
	files, _ := OutputsOf(cmd)
	for _, name := range files {
		f := cmd.Flags().Lookup(name)
		if f == nil || f.Value.String() == "" {
			continue
		}
		outputs := []string{f.Value.String()}
		if beside != nil {
			outputs = append(outputs, beside(f.Value.String())...)
		}
		if err := outfile.CheckNotInputs(outputs, inputs); err != nil {
			return fmt.Errorf("--%s: %w", name, err)
		}
		// and the database's own files: its write-ahead log, shared memory and journal
		if err := outfile.CheckNotDatabaseFiles(outputs, db); err != nil {
			return fmt.Errorf("--%s: %w", name, err)
		}
	}
	return nil
}

// andList writes "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
