package search

import (
	"io"

	"github.com/gctune/gctune/internal/errwriter"
)

// WriteText writes the rules the profile produced, one a line (kind, tunable, reason), or
// that there are none, as optimize and study create state the plan before a search.
func (p Plan) WriteText(w io.Writer) error {
	ew := errwriter.New(w)
	if len(p.Rules) == 0 {
		ew.Printf("seeding and constraints from the lifetime profile: none\n")
		return ew.Err()
	}
	ew.Printf("from the lifetime profile (--no-seed, --no-constrain turn these off):\n")
	for _, r := range p.Rules {
		ew.Printf("  %-10s %s: %s\n", r.Kind, r.Name, r.Reason)
	}
	return ew.Err()
}
