package main

import (
	"github.com/spf13/cobra"
)

// inputsHelp is the paragraph the --help of every command that reads inputs ends with.
const inputsHelp = `

Inputs may be FIFOs or pipes, read once as streams: a profile as <(zcat run.csv.gz) or - (standard
input), --config, --meta, --measured, --cost. A command waits, as cat does, until a FIFO's writer
opens it (Ctrl-C stops the wait). A profile whose name has no .csv, .yaml, .yml or .gcprof
extension is read by its content: a FiLiP export's CSV header, a workload spec's YAML keys, or a
.gcprof profile's magic (a stream's FiLiP metadata with --meta, or its rate with --rate).
A study's profiles must be regular files, which resume and workers read again.`

// addInputsHelp ends the --help of the commands that read profiles and input files with
// inputsHelp.
func addInputsHelp(root interface {
	Commands() []*cobra.Command
}) {
	for _, c := range root.Commands() {
		switch c.Name() {
		case "lifetimes", "simulate", "sample", "calibrate", "optimize", "studies":
			if c.Name() == "studies" {
				addInputsHelp(c)
				continue
			}
			c.Long += inputsHelp
		case "create":
			c.Long += inputsHelp
		}
	}
}
