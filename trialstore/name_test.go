package trialstore

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateName(t *testing.T) {
	for _, ok := range []string{"dataframe-3.1gb", "a+b", "my study", "étude ünïcode", `x" quoted "`, "a'b", strings.Repeat("x", MaxNameBytes)} {
		if err := ValidateName(ok); err != nil {
			t.Errorf("ValidateName(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"", " ", "\t", "a\nstorage: evil", "a\rb", "a\x1b[31mred", "a\u2028b", "a\u202eb", "a\x00b", "\xff", "a\u0085b", strings.Repeat("x", MaxNameBytes+1)} {
		err := ValidateName(bad)
		if err == nil {
			t.Errorf("ValidateName(%q) = nil, want an error", bad)
			continue
		}
		if !errors.Is(err, ErrBadName) {
			t.Errorf("ValidateName(%q) = %v, not ErrBadName", bad, err)
		}
		if strings.ContainsAny(err.Error(), "\n\r\x1b\u2028") {
			t.Errorf("the error for %q is not one plain line: %q", bad, err.Error())
		}
	}
}
