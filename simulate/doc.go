// Package simulate is what `gctune simulate` answers: one profile simulated at given GC
// parameters and at the defaults (Simulate), optionally with allocation sites pretenured
// (Pretenure) and on perturbed replicas, described as a Report with its JSON document and its
// text table (Report.WriteText); and the batch mode that answers one JSON line per parameter
// set read (Batch), how scripts in other languages drive the simulator; and `gctune sample`'s
// export of a profile as FiLiP would have sampled it, with the GC counts of its simulated
// default run (Sample).
//
// It sits with the outputs (docs/architecture.md, layer 6): it imports the simulator and its
// models (heapsim, heapsim/eventlog, objective, uncertainty), the tunables, the study's
// description of a profile read (study.Input, study.ProfileInfo) and recommend's interval
// text; the command line opens the profile, loads the configuration and prints.
//
// Errors that are the user's to fix (a --pretenure pattern that matches nothing) match
// ErrInput; their messages are the ones the command line prints.
package simulate
