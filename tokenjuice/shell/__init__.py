"""The shell analysis every host shares: parsing a command line (`syntax`, `expand`,
`argv`), what a command is (`command`), the rewrite into `tokenjuice wrap` (`rewrite`)
and what is never wrapped (`neverwrap`)."""
