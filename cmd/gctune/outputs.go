package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/trialstore"
)

// checkOutputFlags is the root's PersistentPreRunE: it checks the flags cmd declared as
// naming a file it writes (declare: annOutputs) with outfile.Check, and those naming a
// directory it writes files into (annOutputDirs), before the command does any work, so an
// unwritable output is found in a second, not after a long search or report. Errors are
// *outfile.Error (exit code 2) naming the flag.
func checkOutputFlags(cmd *cobra.Command, _ []string) error {
	files, dirs := cmdutil.OutputsOf(cmd)
	for _, name := range files {
		f := cmd.Flags().Lookup(name)
		if f == nil || f.Value.String() == "" {
			continue
		}
		if err := outfile.Check(f.Value.String()); err != nil {
			return fmt.Errorf("--%s: %w", name, err)
		}
		if cmd.Name() == "sample" { // and the metadata beside the CSV; both files
			if err := outfile.Check(sampleMetaPath(f.Value.String())); err != nil {
				return fmt.Errorf("--%s: %w", name, err)
			}
			if err := checkSampleFiles(f.Value.String()); err != nil {
				return fmt.Errorf("--%s: %w", name, err)
			}
		}
	}
	for _, name := range dirs {
		f := cmd.Flags().Lookup(name)
		if f == nil || f.Value.String() == "" {
			continue
		}
		if err := checkOutputDir(f.Value.String()); err != nil {
			return fmt.Errorf("--%s: %w", name, err)
		}
	}
	return nil
}

// checkOutputDir is cmdutil.CheckOutputDir.
func checkOutputDir(dir string) error { return cmdutil.CheckOutputDir(dir) }

// checkOutputsNotInputs refuses, before any work, an output of cmd (its output flags, and the
// .json that sample writes beside its CSV) that is one of its own inputs, by device and inode:
// a profile argument or the metadata beside it (--meta), --measured, the cost file, the
// configuration file, and the SQLite study database of a command that takes --storage, with
// the files SQLite keeps beside it (-wal, -shm, -journal: outfile.CheckNotDatabaseFiles).
// `report --storage r.db -o r.db` would write the page over the database, `simulate ev.csv
// --events ev.csv` the event log over the profile. The error is an *outfile.Error naming the
// flag (exit code 2).
func checkOutputsNotInputs(cmd *cobra.Command, args []string, configFile string, cfg Config) error {
	files, dirs := cmdutil.OutputsOf(cmd)
	if len(files)+len(dirs) == 0 {
		return nil
	}
	var inputs []string
	if cmdutil.TakesProfiles(cmd) {
		meta := ""
		if f := cmd.Flags().Lookup("meta"); f != nil {
			meta = f.Value.String()
		}
		for _, a := range args {
			inputs = append(inputs, profileFiles(a, source.Options{FiLiPJSONPath: meta})...)
		}
	}
	for _, name := range []string{"measured", "meta"} {
		if f := cmd.Flags().Lookup(name); f != nil {
			inputs = append(inputs, f.Value.String())
		}
	}
	if configFile == "" {
		configFile = defaultConfigFile
	}
	inputs = append(inputs, configFile, cfg.Cost)
	db := ""
	if cmd.Flags().Lookup("storage") != nil {
		db = trialstore.SQLiteFile(cfg.Storage)
		inputs = append(inputs, db)
	}
	for _, name := range files {
		f := cmd.Flags().Lookup(name)
		if f == nil || f.Value.String() == "" {
			continue
		}
		outputs := []string{f.Value.String()}
		if cmd.Name() == "sample" {
			outputs = append(outputs, sampleMetaPath(f.Value.String()))
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

// checkSampleFiles refuses a sample output pair (the CSV and the .json beside it) of which
// either is a named pipe, device or socket: the two are written as files renamed into place
// together, and opening a FIFO nobody reads would block with the other half written (issue
// 35: a FIFO X.json hung sample past a minute).
func checkSampleFiles(csv string) error {
	for _, p := range []string{csv, sampleMetaPath(csv)} {
		kind, err := outfile.Kind(p)
		if err != nil {
			return err
		}
		if kind != "" {
			return &outfile.Error{Path: p, Err: fmt.Errorf("is a %s: sample writes regular files only, %s and %s", kind, csv, sampleMetaPath(csv))}
		}
	}
	return nil
}
