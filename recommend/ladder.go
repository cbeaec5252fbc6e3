package recommend

import "slices"

// MarginLadder returns the moves, as fractions of a kept parameter's value (0.05 = 5 %), at
// which a recommendation measures each side of a margin, nearest first (each side stops at the
// first that costs the tolerance). The report's landscape (diagnose.JudgeLandscape) judges the
// same ladder when a recommendation has no margins, and finer moves between its steps.
func MarginLadder() []float64 { return slices.Clone(marginLadder) }
