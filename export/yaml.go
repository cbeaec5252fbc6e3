package export

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/tunable"
)

// Write writes c in format f.
func Write(w io.Writer, f Format, c *Config, version string) error {
	switch f {
	case JSON:
		return WriteJSON(w, c)
	case YAML:
		return WriteYAML(w, c, version)
	case Flags:
		return WriteFlags(w, c)
	}
	return WriteST(w, c)
}

// WriteJSON writes c as indented JSON.
func WriteJSON(w io.Writer, c *Config) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}

// WriteYAML writes c as a gctune configuration file: the simulate section holds the whole
// configuration (the VM defaults where the export sets nothing), each tunable as a
// configuration file holds it (tunable.Value.FileValue), provenance where it came from. Names in the header comment are quoted onto one line (Quote); in the document the
// YAML encoder quotes them.
func WriteYAML(w io.Writer, c *Config, version string) error {
	v := c.VM
	sim := map[string]any{"stack_pages": v.StackPages,
		"page_size": sizeValue(v.PageBytes), "max_old_space": sizeValue(v.MaxOldSpaceBytes),
		"image_size": sizeValue(v.ImageBytes), "bug588": v.Bug588}
	for _, t := range tunable.All() {
		sim[t.Key] = t.ValueOf(v).FileValue()
	}
	doc := map[string]any{
		"simulate": sim,
		"provenance": map[string]any{
			"study": quoted(c.Study), "trial": c.Trial, "workloads": quoted(strings.Join(c.Workloads, "; ")),
			"predicted_speedup": c.Predicted.Speedup, "peak_footprint": units.FormatBytes(c.Predicted.PeakFootprintBytes),
			"gctune_version": version,
		},
	}
	if iv := predictedInterval(c); iv != "" {
		doc["provenance"].(map[string]any)["predicted_interval"] = iv
	}
	quoted := make([]string, len(c.Files))
	for i, wl := range c.Files {
		quoted[i] = ShellQuote(wl)
	}
	ew := errwriter.New(w)
	ew.Printf("# gctune configuration exported from study %s, trial %d (%s).\n", Quote(c.Study), c.Trial, Quote(c.Provenance.Storage))
	ew.Printf("# Load it with: %s\n", oneLine("gctune simulate "+strings.Join(quoted, " ")+" --config FILE"))
	if ew.Err() != nil {
		return ew.Err()
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	return enc.Close()
}

// WriteFlags writes gctune simulate's flags for the whole configuration, each tunable's value
// as flags take it (tunable.Tunable.Text; survivors to keep given as a count, a VM parameter 6
// written by hand, as its proportion, which is what gctune takes).
func WriteFlags(w io.Writer, c *Config) error {
	var flags []string
	for _, t := range tunable.All() {
		flags = append(flags, "--"+t.FlagName()+" "+t.Text(c.VM))
	}
	ew := errwriter.New(w)
	ew.Printf("%s\n", strings.Join(flags, " "))
	return ew.Err()
}

// quoted is a YAML string in double quotes: the one style that holds any text and loads back
// the same (yaml.v3 writes "\n" alone as a block scalar that loads back as ""). YAML text is
// UTF-8: invalid bytes become U+FFFD.
func quoted(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Style: yaml.DoubleQuotedStyle, Tag: "!!str", Value: strings.ToValidUTF8(s, "\uFFFD")}
}

// oneLine returns s when it is valid UTF-8 and printable (no line break of any kind, which
// would end a YAML comment), else strconv.Quote(s).
func oneLine(s string) string {
	if !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(s)
	}
	return s
}

// predictedInterval states the forecast's intervals as every output does (recommend.Figures):
// "95 % of runs: 469-540 s; the defaults 4,074-4,761 s; the speedup 8.08-9.47×, over 16 runs
// of this input again" ("" for the single simulation or a trial exported as it is).
func predictedInterval(c *Config) string {
	f := c.Figures
	if f == nil || f.Intervals() == "" {
		return ""
	}
	return f.Intervals() + ", over " + f.Runs
}

// sizeValue is a size as the YAML holds it, with its unit ("56MiB", units.ExactBytes), which
// the configuration reads back exactly; 0 (no limit) stays the number 0.
func sizeValue(n uint64) any {
	if n == 0 {
		return 0
	}
	return units.ExactBytes(n)
}
