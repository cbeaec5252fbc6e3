package profile

// DefaultLongLivedThreshold is the lifetime, as a fraction of the run, from which an object
// counts as long-lived: 5 % of the run. The DataFrame papers' long-lived objects live for
// most of the run (93 % on average) and their short-lived ones for 0.06 %, so any threshold
// between the two modes gives the same split; 5 % sits well inside the gap. The lifetime
// analysis (lifetimes.AnalysisOptions) defaults to it, and the simulator counts tenured
// objects that die sooner than it as short-lived.
const DefaultLongLivedThreshold = 0.05
