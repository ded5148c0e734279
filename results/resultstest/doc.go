// Package resultstest crafts results for other packages' tests.
package resultstest
