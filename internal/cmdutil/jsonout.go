package cmdutil

import (
	"encoding/json"
	"errors"
	"io"
)

// WriteJSON writes v as an indented JSON document followed by a newline. A value JSON cannot
// hold (an infinite speedup from a damaged trial's value of 0) is a UsageError naming it, and
// nothing is written: the document is encoded whole before it goes out.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	err := enc.Encode(v)
	var unsupported *json.UnsupportedValueError
	if errors.As(err, &unsupported) {
		return Usagef("JSON output: %s is not a number JSON can hold (a damaged trial value in the study database?)", unsupported.Str)
	}
	return err
}
