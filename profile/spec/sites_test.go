package spec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile"
)

// TestBundledDataFrameSites: the bundled DataFrame specs name the methods their comments cite
// as each entry's site, and every record of them has a named site.
func TestBundledDataFrameSites(t *testing.T) {
	s, err := BundledSpec("dataframe-500mb")
	require.NoError(t, err)
	p, err := s.Generate(GenerateOptions{Resolution: 0.001, Seed: 1})
	require.NoError(t, err)
	require.True(t, p.HasSites())
	for _, want := range []string{"NeoCSVReader>>#readField", "NeoCSVReader>>#readNextRecord", "OrderedCollection>>#growAtLast",
		"DataFrameInternal class>>#withRows:", "DataFrameTypeDetector>>#convertToFloat:", "DataFrameInternal>>#asArrayOfColumns"} {
		assert.Contains(t, p.SiteNames, want)
	}
	assert.NotContains(t, p.SiteNames, profile.UnknownSite, "every entry names its site")
	// A convertToFloat: array is one of the large column arrays.
	for i := range p.Len() {
		if p.SiteName(i) == "DataFrameTypeDetector>>#convertToFloat:" {
			assert.Equal(t, "Array", p.ClassName(i))
			assert.Greater(t, p.SizeBytes[i], uint32(profile.MaxNewSpaceObjectBytes))
		}
	}
}

// TestSpecSiteOptional: an entry without site: gets the unknown site when another names one,
// and a spec naming none gives a profile without sites.
func TestSpecSiteOptional(t *testing.T) {
	const doc = `name: s

classes: [{name: A, size: 32}]
phases:
  - name: p
    allocate: 1MB
    mix:
      - {class: A, share: 0.5, lifetime: 100, site: "A>>m"}
      - {class: A, share: 0.5, lifetime: 200}
`
	s, err := Parse([]byte(doc), "s.yaml")
	require.NoError(t, err)
	p, err := s.Generate(GenerateOptions{Resolution: 1, Seed: 1})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"A>>#m", profile.UnknownSite}, p.SiteNames)
}
