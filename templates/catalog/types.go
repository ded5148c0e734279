package catalog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Type is the kind of value an option takes.
type Type string

// The types a sample's default tells.
const (
	TypeString    Type = "string"      // anything
	TypeBool      Type = "bool"        // Swift's config_true_value words
	TypeInt       Type = "int"         // an integer
	TypeFloat     Type = "float"       // a number
	TypeIntOrAuto Type = "int_or_auto" // an integer or "auto" (workers)
	TypePercent   Type = "size_or_percent"
)

// trueWords and falseWords are what Swift's config_true_value and
// config_false_value accept (case-insensitively). Swift reads any other
// word as false without a word, which is why benchbed refuses it.
var (
	trueWords  = []string{"true", "1", "yes", "on", "t", "y"}
	falseWords = []string{"false", "0", "no", "off", "f", "n"}
)

// floatHints are parts of a key name whose value Swift reads as a float
// even where the sample's default is a whole number (node_timeout = 10).
var floatHints = []string{"timeout", "interval", "delay", "ratio", "rate", "sleep", "time",
	"per_sec", "per_second", "factor", "speed", "seconds", "age", "_limit", "reserve", "cap", "weight", "percent"}

// inferType tells an option's type from its name and documented default.
func inferType(key, def string) Type {
	d := strings.ToLower(strings.TrimSpace(def))
	switch {
	case d == "":
		return TypeString
	case d == "auto":
		return TypeIntOrAuto
	case d == "true" || d == "false" || d == "yes" || d == "no" || d == "on" || d == "off":
		return TypeBool
	case strings.HasSuffix(d, "%"):
		if _, err := strconv.ParseFloat(strings.TrimSuffix(d, "%"), 64); err == nil {
			return TypePercent
		}
	}
	if _, err := strconv.ParseInt(d, 10, 64); err == nil {
		for _, h := range floatHints {
			if strings.Contains(key, h) {
				return TypeFloat
			}
		}
		return TypeInt
	}
	if _, err := strconv.ParseFloat(d, 64); err == nil {
		return TypeFloat
	}
	return TypeString
}

// Noun names the type in a sentence: "an integer".
func (t Type) Noun() string {
	switch t {
	case TypeBool:
		return "a boolean"
	case TypeInt:
		return "an integer"
	case TypeFloat:
		return "a number"
	case TypeIntOrAuto:
		return "an integer or auto"
	case TypePercent:
		return "a size in bytes or a percentage"
	}
	return "a string"
}

// CheckValue says why v is no value of type t, or "" when it is one.
func (t Type) CheckValue(v string) string {
	s := strings.ToLower(strings.TrimSpace(v))
	switch t {
	case TypeBool:
		if !slices.Contains(trueWords, s) && !slices.Contains(falseWords, s) {
			return fmt.Sprintf("%q is no boolean (true, false, yes, no, on, off, 1, 0): Swift would read it as false", v)
		}
	case TypeInt:
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			return fmt.Sprintf("%q is no integer", v)
		}
	case TypeIntOrAuto:
		if _, err := strconv.ParseInt(s, 10, 64); err != nil && s != "auto" {
			return fmt.Sprintf("%q is neither an integer nor auto", v)
		}
	case TypeFloat:
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return fmt.Sprintf("%q is no number", v)
		}
	case TypePercent:
		if _, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64); err != nil {
			return fmt.Sprintf("%q is neither a size in bytes nor a percentage", v)
		}
	}
	return ""
}
