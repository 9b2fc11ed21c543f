"""What never ends or needs a terminal, declared as data (`*.toml`, validated by
`schema`, compiled into `data` and `more`) and evaluated by `engine`."""
