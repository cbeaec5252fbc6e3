package study

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWorkloadNamesInWords(t *testing.T) {
	pair := []WorkloadRef{{Ref: "df.csv", Rebuild: "auto"}, {Ref: "df.csv", Rebuild: "stored"}, {Ref: "other.csv", Rebuild: "auto"}, {Ref: "dataframe-500mb"}}
	assert.Equal(t, []string{
		"df.csv, if the large objects the sample missed live as estimated from the sample",
		"df.csv, if the large objects the sample missed live to the end and hold the long-lived small objects",
		"other.csv", "dataframe-500mb",
	}, Names(pair))
	assert.Equal(t, "old.csv, if the large objects the sample missed live to the end", WorkloadRef{Ref: "old.csv", Rebuild: "long"}.Name())
	sp := &Problem{Workloads: pair}
	assert.Equal(t, "df.csv under 2 hypotheses, other.csv, dataframe-500mb", sp.WorkloadNames())
}
