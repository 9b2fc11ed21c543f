"""What never ends or needs a terminal, declared as data (`*.toml`, validated by
`schema`, compiled into `data` and `more`) and evaluated by `engine` (with `predicates`,
the named ones a case can call). The kinds of reason are declared here, where the engine
and the predicates both read them."""

#: Kinds of reason. `timeout N …` makes an ENDLESS command end; nothing helps the others.
ENDLESS = "endless"  # runs until stopped: servers, watchers, followers
TERMINAL = "terminal"  # needs the terminal: editors, pagers, REPLs, prompts, TUIs
DETACHED = "detached"  # leaves a process behind that keeps the output pipe open
