package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/templates"

	"github.com/spf13/cobra"
)

func init() { register(newRenderCmd) }

func newRenderCmd() *cobra.Command {
	var (
		lf      *loadFlags
		variant string
		out     string
		hosts   []string
	)
	cmd := &cobra.Command{
		Use:   "render FILE [--variant V] --out DIR [--host H]",
		Short: "Render every conf of every host of a variant (the first: what setup sets up) to DIR/<host>/<path>, plus the ring layout",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tb, err := lf.load(cmd, args[0])
			if err != nil {
				return err
			}
			r, err := renderVariant(tb, variant, hosts)
			if err != nil {
				return maskError(tb, err)
			}
			printWarnings(cmd, tb, r.Warnings, "")
			written, err := r.WriteDir(out)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			for _, rl := range r.Layout.Rings {
				fmt.Fprintf(w, "ring %s: %s, %d devices\n", rl.Ring.Name, rl.Mode(), len(rl.Devices))
			}
			name := "(no variant: the services' own settings)"
			if r.Variant != nil {
				name = strconv.Quote(r.Variant.Name)
			}
			_, err = fmt.Fprintf(w, "variant %s: wrote %d files to %s\n", name, len(written), out)
			return err
		},
	}
	lf = addLoadFlags(cmd)
	cmd.Flags().StringVar(&variant, "variant", "", "the variant to render (default: the first, which setup sets up)")
	cmd.Flags().StringVar(&out, "out", "", "output directory (required)")
	cmd.Flags().StringArrayVar(&hosts, "host", nil, "render only this host (repeatable)")
	_ = cmd.MarkFlagRequired("out")
	return cmd
}

// renderVariant renders the variant named name (""; the first, or the
// services' defaults without variants), or says which exist (an
// inputError: exit 2).
func renderVariant(tb *plan.Testbed, name string, hosts []string) (*render.Rendering, error) {
	if name == "" {
		var first *plan.Variant
		if len(tb.Variants) > 0 {
			first = tb.Variants[0]
		}
		return render.Render(tb, first, render.Options{Hosts: hosts})
	}
	v := tb.Variant(name)
	if v == nil {
		var names []string
		for _, x := range tb.Variants {
			names = append(names, fmt.Sprintf("%q", x.Name))
		}
		return nil, inputError(fmt.Errorf("%s: no variant %q (variants: %s)", tb.File, name, strings.Join(names, ", ")))
	}
	return render.Render(tb, v, render.Options{Hosts: hosts})
}

// printWarnings prints warnings on stderr, masked, each prefixed by prefix;
// a warning that several hosts share is printed once, naming them all.
func printWarnings(cmd *cobra.Command, tb *plan.Testbed, warns []templates.Warning, prefix string) {
	var order []string
	hosts := map[string][]string{}
	for _, w := range warns {
		h := w.Host
		w.Host = ""
		k := w.String()
		if _, seen := hosts[k]; !seen {
			order = append(order, k)
		}
		if h != "" {
			hosts[k] = append(hosts[k], h)
		} else if hosts[k] == nil {
			hosts[k] = []string{}
		}
	}
	for _, k := range order {
		line := k
		if hs := hosts[k]; len(hs) > 0 {
			line = strings.Join(hs, ", ") + ": " + k
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s%s\n", prefix, tb.Mask(line))
	}
}

// maskError returns err with tb's secrets masked in its message, keeping
// its exit status.
func maskError(tb *plan.Testbed, err error) error {
	var ex *exitError
	if errors.As(err, &ex) {
		return &exitError{code: ex.code, msg: tb.Mask(ex.msg)}
	}
	return errors.New(maskedMessage(tb, err))
}

// maskedMessage is err's message (an exitError's own) with tb's secrets
// masked.
func maskedMessage(tb *plan.Testbed, err error) string {
	var ex *exitError
	if errors.As(err, &ex) {
		return tb.Mask(ex.msg)
	}
	return tb.Mask(err.Error())
}
