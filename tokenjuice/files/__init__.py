"""Writing files safely: atomic replacement (`atomic`), edits of other tools' config
files that keep every byte of the user's (`editfile`, `jsonedit`, `jsonfile`) and the
private caches (`cachefile`)."""
