package study

import (
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// printable returns s with every control character, line or paragraph separator and invalid
// byte written as its Go escape (ESC as \x1b): a string read from a study is printed by
// export, explain, report and studies show, and a raw escape sequence in it would drive the
// terminal (set its title, hide text).
func printable(s string) string {
	bad := func(r rune) bool { return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' }
	if utf8.ValidString(s) && strings.IndexFunc(s, bad) < 0 {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if (r == utf8.RuneError && n == 1) || bad(r) {
			q := strconv.Quote(s[:n])
			b.WriteString(q[1 : len(q)-1])
		} else {
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}

// sanitizeStrings makes every string reachable from v (a pointer) printable, in place: the
// fields of structs, the elements of slices and arrays, the targets of pointers, the values
// of maps with string values.
func sanitizeStrings(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			sanitizeStrings(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				sanitizeStrings(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			sanitizeStrings(v.Index(i))
		}
	case reflect.Map:
		if v.Type().Elem().Kind() == reflect.String {
			for _, k := range v.MapKeys() {
				v.SetMapIndex(k, reflect.ValueOf(printable(v.MapIndex(k).String())).Convert(v.Type().Elem()))
			}
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(printable(v.String()))
		}
	}
}
