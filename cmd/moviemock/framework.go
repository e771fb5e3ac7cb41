package main

import (
	"flag"

	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
)

// frameworkOpts are the flags that say how a contract is read: by which
// framework's profile, and whether what the mock cannot enforce as
// declared is refused rather than degraded.
type frameworkOpts struct {
	name   string
	strict bool
}

func frameworkFlags(fs *flag.FlagSet) *frameworkOpts {
	o := &frameworkOpts{}
	fs.StringVar(&o.name, "framework", "auto", "the framework `profile` the contract is answered and judged by: auto (what the document shows), fastapi or openapi")
	fs.BoolVar(&o.strict, "strict", false, "refuse a contract with a construct the mock cannot enforce as declared, rather than degrade it (the start-up block lists degradations)")
	return o
}

// options are the model options the flags ask for; none for the defaults.
func (o *frameworkOpts) options(cmd string) ([]model.Option, error) {
	name, set, err := framework.Parse(o.name)
	if err != nil {
		return nil, usagef("%s: --framework: %v", cmd, err)
	}
	var opts []model.Option
	if set {
		opts = append(opts, model.WithFramework(name))
	}
	if o.strict {
		opts = append(opts, model.WithStrict(true))
	}
	return opts, nil
}
