package recommend

import (
	"io"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/termtext"
)

// WriteExplainHeader writes what gctune explain says about study's recommendation r before
// the diagnosis: the study and its workloads, the recommendation (WriteText), and, when r was
// judged on perturbed runs, that the diagnosis below is the single simulation of the profiled
// run. seconds says the value is in seconds (one workload).
func (r *Recommendation) WriteExplainHeader(w io.Writer, study, workloads string, seconds bool) error {
	ew := errwriter.New(w)
	ew.Printf("Study %s (%s): the recommended configuration against the VM defaults.\n", termtext.Quote(study), workloads)
	if ew.Err() == nil {
		if err := r.WriteText(w, seconds); err != nil {
			return err
		}
	}
	if r.Robust != nil {
		ew.Printf("The diagnosis below simulates the profiled run exactly as recorded, one run of each configuration: its figures are the single simulation's, not the expected ones above.\n")
	}
	ew.Printf("\n")
	return ew.Err()
}
