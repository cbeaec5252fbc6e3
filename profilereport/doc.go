// Package profilereport is what `gctune lifetimes` says about one profile: the lifetime
// analysis (package lifetimes) with how the profile was read, the allocation sites judged on
// one simulation at the defaults, the long-lived share on the simulated wall clock and, for a
// sampled export searched under two hypotheses, the containers under the second one
// (Analyze), as a JSON document (Lifetimes) and its text (Lifetimes.WriteText).
//
// It is not package lifetimes because it needs what lifetimes may not import
// (docs/architecture.md): the simulator (heapsim: the wall clock), the sites table judged on
// one simulation (pretenure.SitesTable, which pretenure's advice shares) and the study's
// description of a profile read and of its hypotheses (study.Input, study.ProfileInfo,
// study.SearchesStored). It sits with the outputs (layer 6); the command
// line checks the options, opens the profile, draws the figure and prints.
package profilereport
