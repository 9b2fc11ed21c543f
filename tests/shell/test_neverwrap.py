"""tokenjuice.shell.neverwrap.engine: which commands must never be wrapped, read from argv.

Each category has its near-misses next to it: commands that look alike but end on
their own and must be wrapped (None)."""

import json
import marshal

import pytest
from conftest import REPO
from helpers import modules_loaded_by

from tokenjuice.shell.neverwrap.engine import why_not_wrapped, why_not_wrapped_script
from tokenjuice.shell.neverwrap.user import matches_user_pattern
from tokenjuice.shell.syntax import split_words

FOLLOW = "follows output forever"
WATCH = "watch mode"
SERVER = "dev server"
EDITOR = "opens an editor"
REPL = "interactive REPL"

ROWS = [
    # -- following output forever ----------------------------------------------------
    ("tail -f app.log", f"{FOLLOW} (tail -f)"),
    ("tail -n 20 -f app.log", f"{FOLLOW} (tail -f)"),
    ("tail -n20 -F app.log", f"{FOLLOW} (tail -F)"),
    ("tail -fn 20 app.log", f"{FOLLOW} (tail -f)"),
    ("tail -20f app.log", f"{FOLLOW} (tail -f)"),
    ("tail --follow app.log", f"{FOLLOW} (tail --follow)"),
    ("tail --follow=name --retry app.log", f"{FOLLOW} (tail --follow)"),
    ("tail -n 20 app.log", None),
    ("tail -c 100 app.log", None),
    ("tail -n +5 app.log", None),
    ("journalctl -f", f"{FOLLOW} (journalctl -f)"),
    ("journalctl -fu nginx", f"{FOLLOW} (journalctl -f)"),
    ("journalctl -u nginx --follow", f"{FOLLOW} (journalctl -f)"),
    ("journalctl -u nginx -n 50", None),
    ("journalctl -ufirewalld", None),  # -u takes the rest of the word: no -f in it
    ("journalctl -xe", None),
    ("docker logs -f web", f"{FOLLOW} (docker logs -f)"),
    ("docker logs --tail 20 --follow web", f"{FOLLOW} (docker logs -f)"),
    ("docker logs --tail 20 web", None),
    ("kubectl logs -f deploy/api", f"{FOLLOW} (kubectl logs -f)"),
    ("kubectl -n prod logs --follow pod/x -c app", f"{FOLLOW} (kubectl logs -f)"),
    ("kubectl logs -p pod/x", None),
    ("kubectl logs --tail=100 pod/x", None),
    ("dmesg -w", f"{FOLLOW} (dmesg -w)"),
    ("dmesg", None),
    ("adb logcat", f"{FOLLOW} (adb logcat)"),
    ("adb logcat -d", None),
    # -- watch modes -----------------------------------------------------------------
    ("tsc -w", f"{WATCH} (tsc -w)"),
    ("tsc --watch", f"{WATCH} (tsc --watch)"),
    ("tsc -p tsconfig.json -w", f"{WATCH} (tsc -w)"),
    ("tsc -p tsconfig.json", None),
    ("tsc --noEmit", None),
    ("jest --watch", f"{WATCH} (jest --watch)"),
    ("jest --watchAll", f"{WATCH} (jest --watchAll)"),
    ("jest --watchAll=false", None),
    ("jest -w 4", None),  # jest's -w is --maxWorkers
    ("vitest", f"{WATCH} (vitest without run)"),
    ("vitest watch", f"{WATCH} (vitest watch)"),
    ("vitest dev", f"{WATCH} (vitest dev)"),
    ("vitest src/foo.test.ts", f"{WATCH} (vitest without run)"),
    ("vitest run", None),
    ("vitest --run", None),
    ("vitest run --coverage", None),
    ("CI=1 vitest", None),
    ("kubectl get pods -w", f"{WATCH} (kubectl get --watch)"),
    ("kubectl get pods --watch", f"{WATCH} (kubectl get --watch)"),
    ("kubectl get pods -o wide", None),
    ("kubectl get pods -lapp=web", None),  # -l takes the rest of the word
    ("kubectl rollout status deploy/api --watch", None),  # ends when the rollout does
    ("cargo watch -x test", f"{WATCH} (cargo watch)"),
    ("cargo test", None),
    ("nodemon server.js", f"{WATCH} (nodemon)"),
    ("mocha -w", f"{WATCH} (mocha -w)"),
    ("rollup -cw", f"{WATCH} (rollup -w)"),
    ("tsx watch src/index.ts", f"{WATCH} (tsx watch)"),
    ("tsx src/index.ts", None),
    ("node --watch server.js", f"{WATCH} (node --watch)"),
    ("dotnet watch run", f"{WATCH} (dotnet watch)"),
    ("dotnet run", None),
    ("ng test", f"{WATCH} (ng test without --watch=false)"),
    ("ng test --watch=false", None),
    ("sbt ~compile", f"{WATCH} (sbt ~)"),
    ("gradle -t build", f"{WATCH} (gradle --continuous)"),
    ("gradle build", None),
    ("grep -w foo src", None),
    ("wc -w notes.txt", None),
    ("ls -w 80", None),
    ("sort -u names.txt", None),
    ("docker ps", None),
    ("gh run watch 123", None),  # ends when the run does
    ("gh pr checks --watch", None),
    ("ls watch", None),
    ("cat serve", None),
    ("mkdir dev", None),
    # -- dev servers -----------------------------------------------------------------
    ("npm run dev", f"{SERVER} (npm run dev)"),
    ("npm run start", f"{SERVER} (npm run start)"),
    ("npm run serve", f"{SERVER} (npm run serve)"),
    ("npm run watch", f"{WATCH} (npm run watch)"),
    ("npm run test:watch", f"{WATCH} (npm run test:watch)"),
    ("npm run dev -- --port 3000", f"{SERVER} (npm run dev)"),
    ("npm -w web run dev", f"{SERVER} (npm run dev)"),
    ("npm start", f"{SERVER} (npm start)"),
    ("npm test -- --watch", f"{WATCH} (npm test --watch)"),
    ("npm run build", None),
    ("npm run build:dev", None),
    ("npm run dev:setup", None),
    ("npm test", None),
    ("npm run", None),
    ("npm ci", None),
    ("pnpm dev", f"{SERVER} (pnpm dev)"),
    ("pnpm run dev", f"{SERVER} (pnpm run dev)"),
    ("pnpm --filter web dev", f"{SERVER} (pnpm dev)"),
    ("pnpm -F web run dev", f"{SERVER} (pnpm run dev)"),
    ("pnpm -r --parallel dev", f"{SERVER} (pnpm dev)"),
    ("pnpm start", f"{SERVER} (pnpm start)"),
    ("pnpm build", None),
    ("pnpm --filter web build", None),
    ("pnpm install", None),
    ("pnpm exec vite", f"{SERVER} (vite)"),
    ("pnpm exec vite build", None),
    ("yarn dev", f"{SERVER} (yarn dev)"),
    ("yarn start", f"{SERVER} (yarn start)"),
    ("yarn workspace web dev", f"{SERVER} (yarn dev)"),
    ("yarn workspaces foreach -Api run dev", f"{SERVER} (yarn run dev)"),
    ("yarn workspace web build", None),
    ("yarn", None),
    ("yarn test --watch", f"{WATCH} (yarn test --watch)"),
    ("bun run dev", f"{SERVER} (bun run dev)"),
    ("bun dev", f"{SERVER} (bun dev)"),
    ("bun --hot server.ts", f"{WATCH} (bun --hot)"),
    ("bun test", None),
    ("bun run build", None),
    ("npx vite", f"{SERVER} (vite)"),
    ("vite", f"{SERVER} (vite)"),
    ("vite --port 3000", f"{SERVER} (vite)"),
    ("vite dev", f"{SERVER} (vite dev)"),
    ("vite serve", f"{SERVER} (vite serve)"),
    ("vite preview", f"{SERVER} (vite preview)"),
    ("vite build", None),
    ("vite build --watch", f"{WATCH} (vite build --watch)"),
    ("next dev", f"{SERVER} (next dev)"),
    ("next start", f"{SERVER} (next start)"),
    ("next build", None),
    ("nuxt dev", f"{SERVER} (nuxt dev)"),
    ("nuxt build", None),
    ("astro dev", f"{SERVER} (astro dev)"),
    ("astro build", None),
    ("ng serve", f"{SERVER} (ng serve)"),
    ("ng build", None),
    ("storybook dev -p 6006", f"{SERVER} (storybook dev)"),
    ("storybook build", None),
    ("webpack serve", f"{SERVER} (webpack serve)"),
    ("webpack --mode production", None),
    ("turbo run dev", f"{SERVER} (turbo run dev)"),
    ("turbo run build", None),
    ("nx run web:serve", f"{SERVER} (nx run web:serve)"),
    ("nx run web:build", None),
    ("uvicorn app:app --reload", f"{SERVER} (uvicorn)"),
    ("uv run uvicorn app:app", f"{SERVER} (uvicorn)"),
    ("poetry run uvicorn app:app", f"{SERVER} (uvicorn)"),
    ("python -m uvicorn app:app", f"{SERVER} (uvicorn)"),
    ("gunicorn -w 4 app:app", f"{SERVER} (gunicorn)"),
    ("gunicorn --check-config app:app", None),
    ("flask run", f"{SERVER} (flask run)"),
    ("flask --app hello run --debug", f"{SERVER} (flask run)"),
    ("flask routes", None),
    ("fastapi dev main.py", f"{SERVER} (fastapi dev)"),
    ("python manage.py runserver", f"{SERVER} (manage.py runserver)"),
    ("./manage.py runserver 0.0.0.0:8000", f"{SERVER} (manage.py runserver)"),
    ("python manage.py migrate", None),
    ("python manage.py test", None),
    ("rails s", f"{SERVER} (rails s)"),
    ("bundle exec rails server -p 3000", f"{SERVER} (rails server)"),
    ("rails db:migrate", None),
    ("php artisan serve", f"{SERVER} (php artisan serve)"),
    ("php artisan migrate", None),
    ("php -S localhost:8000", f"{SERVER} (php -S)"),
    ("php script.php", None),
    ("python -m http.server", f"{SERVER} (python -m http.server)"),
    ("python3 -m http.server 8000", f"{SERVER} (python3 -m http.server)"),
    ("python -m json.tool data.json", None),
    ("hugo server -D", f"{SERVER} (hugo server)"),
    ("hugo", None),
    ("jekyll serve", f"{SERVER} (jekyll serve)"),
    ("bundle exec jekyll build", None),
    ("mkdocs serve", f"{SERVER} (mkdocs serve)"),
    ("mkdocs build --strict", None),
    ("make dev", f"{SERVER} (make dev)"),
    ("make build", None),
    ("tailscale serve status", None),
    # -- compose, containers, clusters -------------------------------------------------
    ("docker compose up", "runs in the foreground until stopped (docker compose up without -d)"),
    ("docker compose -f dev.yml up --build", "runs in the foreground until stopped (docker compose up without -d)"),
    ("docker-compose up web", "runs in the foreground until stopped (docker-compose up without -d)"),
    ("docker compose up -d", None),
    ("docker compose up --detach --build", None),
    ("docker-compose up -d", None),
    ("docker compose up --wait", None),
    ("docker compose up --abort-on-container-exit --exit-code-from tests", None),
    ("docker compose logs -f web", f"{FOLLOW} (docker compose logs -f)"),
    ("docker compose logs web", None),
    ("docker compose exec web bash", "interactive shell (bash without -c or a script)"),
    ("docker compose exec -T web pytest", None),
    ("docker run -it ubuntu", "interactive container (docker run -it)"),
    ("docker run -ti ubuntu bash", "interactive container (docker run -it)"),
    ("docker run -i -t ubuntu", "interactive container (docker run -it)"),
    ("docker run --rm --interactive --tty ubuntu", "interactive container (docker run -it)"),
    ("docker run -p 8080:80 nginx", "server container in the foreground (docker run -p without -d)"),
    ("docker run --rm -v /x:/y img tail -f /y/log", f"{FOLLOW} (tail -f)"),
    ("docker run --rm img true", None),
    ("docker run --rm ubuntu bash", None),  # no -i: bash reads nothing and exits
    ("docker run -d -p 8080:80 nginx", None),
    ("docker run --rm -e A=1 -w /src img make test", None),
    ("docker exec -it web bash", "interactive container (docker exec -it)"),
    ("docker exec web ls /app", None),
    ("docker exec -e A=1 web tail -f /log", f"{FOLLOW} (tail -f)"),
    ("docker stats", "live monitor (docker stats without --no-stream)"),
    ("docker stats --no-stream", None),
    ("kubectl exec -it pod/x -- sh", "interactive container (kubectl exec -it)"),
    ("kubectl exec pod/x -- ls /", None),
    ("kubectl run -it --rm debug --image=busybox -- sh", "interactive container (kubectl run -it)"),
    ("kubectl port-forward svc/api 8080:80", "forwards until stopped (kubectl port-forward)"),
    ("kubectl edit deploy/api", f"{EDITOR} (kubectl edit)"),
    ("kubectl apply -f k8s/", None),
    # -- remote sessions -------------------------------------------------------------
    ("ssh host", "interactive session (ssh without a remote command)"),
    (
        "ssh -p 22 -i ~/.ssh/key -o StrictHostKeyChecking=no user@host",
        "interactive session (ssh without a remote command)",
    ),
    ("ssh host -p 2222", "interactive session (ssh without a remote command)"),
    ("ssh host 'tail -f /var/log/syslog'", f"{FOLLOW} (tail -f)"),
    ("ssh -t host htop", "live monitor (htop)"),
    ("ssh -N -L 8080:localhost:80 host", "forwards ports until stopped (ssh -N)"),
    ("ssh -fN -L 8080:localhost:80 host", "goes to the background (ssh -f)"),
    ("ssh host uptime", None),
    ("ssh -p 22 -i key -o X=Y host ls -la", None),
    ("ssh dev uptime", None),  # a host named dev is not a dev server
    ("ssh host 'cd /app && git pull'", None),
    ("ssh -G host", None),
    ("sftp host", "interactive session (sftp without -b)"),
    ("sftp -b batch.txt host", None),
    ("mosh host", "interactive session (mosh)"),
    # -- REPLs -----------------------------------------------------------------------
    ("python", f"{REPL} (python without a script)"),
    ("python3", f"{REPL} (python3 without a script)"),
    ("python -i script.py", f"{REPL} (python -i)"),
    ("uv run python", f"{REPL} (python without a script)"),
    ("python script.py", None),
    ("python -u -X importtime script.py", None),
    ("python -c 'print(1)'", None),
    ("python -V", None),
    ("python3 --version", None),
    ("ipython", f"{REPL} (ipython)"),
    ("ipython script.py", None),
    ("node", f"{REPL} (node without a script)"),
    ("node -i", f"{REPL} (node -i)"),
    ("node script.js", None),
    ("node -e 'console.log(1)'", None),
    ("node --test", None),
    ("deno", f"{REPL} (deno)"),
    ("deno repl", f"{REPL} (deno repl)"),
    ("deno run main.ts", None),
    ("irb", f"{REPL} (irb)"),
    ("ruby script.rb", None),
    ("psql", f"{REPL} (psql without -c or -f)"),
    ("psql -h db -U app appdb", f"{REPL} (psql without -c or -f)"),
    ("psql -c 'select 1'", None),
    ("psql -Atc 'select 1'", None),
    ("psql -h db -U app -f schema.sql", None),
    ("mysql", f"{REPL} (mysql without -e)"),
    ("mysql -uroot -p -e 'select 1'", "asks for a password (mysql -p)"),
    ("mysql -e 'select 1'", None),
    ("mysql -uroot -psecret -e 'select 1'", None),
    ("sqlite3 app.db", f"{REPL} (sqlite3 without SQL)"),
    ("sqlite3 app.db 'select count(*) from t'", None),
    ("sqlite3 app.db .tables", None),
    ("redis-cli", f"{REPL} (redis-cli without a command)"),
    ("redis-cli monitor", "streams forever (redis-cli monitor)"),
    ("redis-cli ping", None),
    ("redis-cli -h cache -p 6379 get key", None),
    ("mongosh", f"{REPL} (mongosh without --eval)"),
    ("mongosh --eval 'db.users.countDocuments()'", None),
    ("ghci Main.hs", f"{REPL} (ghci)"),
    ("R", f"{REPL} (R)"),
    ("R CMD check .", None),
    ("Rscript analysis.R", None),
    # -- editors, pagers ---------------------------------------------------------------
    ("vim notes.txt", f"{EDITOR} (vim)"),
    ("vi", f"{EDITOR} (vi)"),
    ("nvim .", f"{EDITOR} (nvim)"),
    ("nano /etc/hosts", f"{EDITOR} (nano)"),
    ("emacs -nw x", f"{EDITOR} (emacs)"),
    ("micro x", f"{EDITOR} (micro)"),
    ("nvim --headless -c 'Lazy sync' -c qa", None),
    ("vim -es -c '%s/a/b/' -c wq file", None),
    ("emacs --batch -l build.el", None),
    ("code --wait x", "waits for the editor to close (code --wait)"),
    ("code .", None),
    ("less README.md", "opens a pager (less)"),
    ("more README.md", "opens a pager (more)"),
    ("man git", "opens a pager (man)"),
    ("MANPAGER=cat man git", None),
    ("man -k printf", None),
    ("crontab -e", f"{EDITOR} (crontab -e)"),
    ("crontab -l", None),
    ("visudo", f"{EDITOR} (visudo)"),
    ("visudo -c", None),
    ("sudo -e /etc/hosts", f"{EDITOR} (sudo -e)"),
    # -- git ---------------------------------------------------------------------------
    ("git commit", f"{EDITOR} (git commit without -m)"),
    ("git commit -v", f"{EDITOR} (git commit without -m)"),
    ("git -C repo commit", f"{EDITOR} (git commit without -m)"),
    ("git commit --amend", f"{EDITOR} (git commit --amend without --no-edit or -m)"),
    ("git commit -e -m draft", f"{EDITOR} (git commit --edit)"),
    ("git commit -p -m x", "picks hunks interactively (git commit -p)"),
    ("git commit -m 'fix: x'", None),
    ("git commit -am 'fix: x'", None),
    ("git commit -F msg.txt", None),
    ("git commit --amend --no-edit", None),
    ("git commit --amend -m x", None),
    ("git commit --fixup HEAD~1", None),
    ("git commit -C HEAD", None),
    ("git commit --no-edit", None),
    ("GIT_EDITOR=true git commit --amend", None),
    ("git -c core.editor=true commit", None),
    ("git rebase -i HEAD~3", f"{EDITOR} (git rebase -i)"),
    ("git rebase --interactive --autosquash main", f"{EDITOR} (git rebase -i)"),
    ("git rebase main", None),
    ("git rebase --continue", None),
    ("GIT_SEQUENCE_EDITOR=: git rebase -i --autosquash main", None),
    ("git add -p", "picks hunks interactively (git add -p)"),
    ("git add --patch src/x.py", "picks hunks interactively (git add -p)"),
    ("git add -i", "interactive menu (git add -i)"),
    ("git add .", None),
    ("git add -A", None),
    ("git checkout -p", "picks hunks interactively (git checkout -p)"),
    ("git stash push -p", "picks hunks interactively (git stash -p)"),
    ("git stash push -m wip", None),
    ("git checkout -b feature", None),
    ("git merge feature", None),  # wrapped, stdout is a pipe: git opens no editor
    ("git merge -e feature", f"{EDITOR} (git merge --edit)"),
    ("git pull", None),
    ("git pull --rebase=interactive", f"{EDITOR} (git pull --rebase=interactive)"),
    ("git tag -a v1.0", f"{EDITOR} (git tag -a without -m)"),
    ("git tag -a v1.0 -m 'release'", None),
    ("git tag v1.0", None),
    ("git revert HEAD", f"{EDITOR} (git revert without --no-edit)"),
    ("git revert --no-edit HEAD", None),
    ("git log --oneline", None),
    ("git diff", None),
    # -- prompts -------------------------------------------------------------------------
    ("npm init", "prompts for answers (npm init without -y)"),
    ("npm create vite@latest my-app", "prompts for answers (npm create without -y)"),
    ("yarn create vite", "prompts for answers (yarn create without -y)"),
    ("pnpm create vite", "prompts for answers (pnpm create without -y)"),
    ("npx create-next-app@latest app", "prompts for answers (create-next-app without --yes)"),
    ("npm init -y", None),
    ("npm init --yes", None),
    ("pnpm create vite my-app -y", None),
    ("npx create-next-app@latest app --yes", None),
    ("pnpm init", None),
    ("gh auth login", "logs in interactively (gh auth login)"),
    ("gh auth login --with-token", None),
    ("gh auth status", None),
    ("aws configure", "prompts for answers (aws configure)"),
    ("aws configure --profile dev", "prompts for answers (aws configure)"),
    ("aws configure set region eu-west-1", None),
    ("aws s3 ls", None),
    ("gcloud init", "prompts for answers (gcloud init)"),
    ("gcloud auth login", "logs in through a browser (gcloud auth login)"),
    ("gcloud config list", None),
    ("az login", "logs in through a browser (az login)"),
    ("az login --identity", None),
    ("ssh-keygen", "prompts for a file and passphrase (ssh-keygen without -f and -N)"),
    ("ssh-keygen -t ed25519", "prompts for a file and passphrase (ssh-keygen without -f and -N)"),
    ("ssh-keygen -t ed25519 -f ~/.ssh/k -N ''", None),
    ("ssh-keygen -R github.com", None),
    ("ssh-keygen -lf key.pub", None),
    ("docker login", "logs in interactively (docker login)"),
    ("docker login -u me --password-stdin", None),
    ("apt install ripgrep", "asks for confirmation (apt install without -y)"),
    ("sudo apt-get install -y ripgrep", None),
    ("apt-get -qq install ripgrep", None),
    ("pip uninstall requests", "asks for confirmation (pip uninstall without -y)"),
    ("pip uninstall -y requests", None),
    ("terraform apply", "asks for confirmation (terraform apply without -auto-approve)"),
    ("terraform apply -auto-approve", None),
    ("terraform apply plan.tfplan", None),
    ("terraform plan", None),
    ("rm -i x", "asks for confirmation (rm -i)"),
    ("rm -rf build", None),
    # -- debuggers -----------------------------------------------------------------------
    ("pytest --pdb", "interactive debugger (pytest --pdb)"),
    ("pytest -x --trace tests/", "interactive debugger (pytest --trace)"),
    ("pytest --pdbcls=IPython.terminal.debugger:TerminalPdb", "interactive debugger (pytest --pdbcls)"),
    ("python -m pytest --pdb", "interactive debugger (pytest --pdb)"),
    ("uv run pytest -x -k test_login", None),
    ("pytest -p no:cacheprovider -q", None),
    ("python -m pdb script.py", "interactive debugger (pdb)"),
    ("gdb ./a.out", "interactive debugger (gdb without --batch)"),
    ("gdb -batch -ex run -ex bt ./a.out", None),
    ("lldb ./a.out", "interactive debugger (lldb without --batch)"),
    ("lldb --batch -o run ./a.out", None),
    ("node --inspect-brk app.js", "waits for a debugger (node --inspect-brk)"),
    # -- monitors ------------------------------------------------------------------------
    ("top", "live monitor (top)"),
    ("top -b -n 1", None),
    ("top -bn1", None),
    ("htop", "live monitor (htop)"),
    ("btop", "live monitor (btop)"),
    ("watch -n 1 kubectl get pods", "reruns a command forever (watch)"),
    ("ping example.com", "pings forever (ping without -c)"),
    ("ping -c 3 example.com", None),
    ("ping -c3 example.com", None),
    ("ping -w 5 example.com", None),
    ("tcpdump -i eth0 port 80", "captures forever (tcpdump without -c)"),
    ("tcpdump -c 10 -i eth0", None),
    ("tcpdump -r capture.pcap", None),
    ("vmstat 1", "repeats forever (vmstat 1 without a count)"),
    ("vmstat 1 5", None),
    # -- interactive shells and sessions ---------------------------------------------------
    ("bash", "interactive shell (bash without -c or a script)"),
    ("sh", "interactive shell (sh without -c or a script)"),
    ("zsh -l", "interactive shell (zsh without -c or a script)"),
    ("fish", "interactive shell (fish without -c or a script)"),
    ("bash -i", "interactive shell (bash -i)"),
    ("bash script.sh", None),
    ("bash -c 'echo hi'", None),
    ("sh -e ./deploy.sh", None),
    ("bash -lc 'npm run dev'", f"{SERVER} (npm run dev)"),
    ("bash -lc 'cd web && npm run build'", None),
    ("tmux", "interactive session (tmux)"),
    ("tmux new -s work", "interactive session (tmux new)"),
    ("tmux new -d -s work 'npm run dev'", None),
    ("tmux send-keys -t work 'ls' Enter", None),
    ("tmux ls", None),
    ("screen", "interactive session (screen)"),
    ("screen -dmS work ./run.sh", None),
    ("screen -ls", None),
    ("sudo -i", "interactive shell (sudo -i)"),
    ("su", "asks for a password (su)"),
    ("nix develop", "interactive shell (nix develop without --command)"),
    ("nix develop -c make", None),
    ("poetry shell", "interactive shell (poetry shell)"),
    # -- detached and background -------------------------------------------------------
    ("nohup ./server", "keeps running after the shell exits (nohup)"),
    ("nohup python worker.py", "keeps running after the shell exits (nohup)"),
    ("setsid ./server", "keeps running after the shell exits (setsid)"),
    ("disown", "detaches background jobs (disown)"),
    # -- wrappers in front -------------------------------------------------------------
    ("sudo tail -f /var/log/syslog", f"{FOLLOW} (tail -f)"),
    ("sudo -u postgres psql", f"{REPL} (psql without -c or -f)"),
    ("env FOO=1 npm run dev", f"{SERVER} (npm run dev)"),
    ("FOO=1 BAR=2 npm run dev", f"{SERVER} (npm run dev)"),
    ("time npm run dev", f"{SERVER} (npm run dev)"),
    ("nice -n 10 tail -f app.log", f"{FOLLOW} (tail -f)"),
    ("stdbuf -oL tail -f app.log", f"{FOLLOW} (tail -f)"),
    ("sudo apt-get update", None),
    ("sudo -u postgres psql -c 'select 1'", None),
    ("env FOO=1 npm run build", None),
    ("time pytest -x", None),
    ("nice -n 10 make -j8", None),
    # `timeout N` ends what would run forever; it cannot give a terminal to what needs one
    ("timeout 10 tail -f app.log", None),
    ("timeout 30s npm run dev", None),
    ("timeout -s KILL 5 ping example.com", None),
    ("timeout 10 vim x", f"{EDITOR} (vim)"),
    ("timeout 60 ssh host", "interactive session (ssh without a remote command)"),
]


#: More of docs/never-wrapped.md's examples: the breadth, without pinning each reason's words.
DOCUMENTED_NEVER_WRAPPED = [
    "nix shell nixpkgs#hello",
    "exec zsh",
    "chroot /mnt",
    "devbox shell",
    "distrobox enter",
    "adb shell",
    "npm explore lodash",
    "zellij",
    "screen -r",
    "screen -S x",
    "vagrant ssh",
    "fly ssh console",
    "gh codespace ssh",
    "az ssh vm",
    "aws ssm start-session --target i-1",
    "git commit --squash HEAD~1",
    "git notes add",
    "git config --edit",
    "git add -e",
    "git rebase --edit-todo",
    "rails console",
    "flask shell",
    "lein repl",
    "stack ghci",
    "cabal repl",
    "firebase init",
    "composer init",
    "sam init",
    "wrangler login",
    "glab auth login",
    "heroku login",
    "fly auth login",
    "cargo login",
    "huggingface-cli login",
    "pytest -f",
    "karma start",
    "deno task dev",
    "parcel index.html",
    "esbuild app.ts --serve",
    "npx @11ty/eleventy --serve",
    "symfony serve",
    "iperf3 -s",
    "mongod",
    "cloudflared tunnel run",
    "docker events",
    "kubectl debug -it pod --image=busybox",
    "docker start -ai c",
    "log stream",
    "hugo -w",
    "jekyll build -w",
    "webpack -w",
    "kubectl events -w",
    "python -m code",
    "python -m asyncio",
    "ts-node",
    "tsx",
    "bun repl",
    "pry",
    "php artisan tinker",
    "iex -S mix",
    "swipl",
    "jshell",
    "pgcli",
    "mycli",
    "beeline",
    "sqlplus scott/tiger",
    "vimdiff a b",
    "kak x",
    "emacsclient x",
    "cursor --wait x",
    "subl -w x",
    "vipw",
    "sudoedit /etc/hosts",
    "systemctl edit nginx",
    "rails credentials:edit",
    "ansible-vault edit x.yml",
    "sops secrets.yaml",
    "npm edit lodash",
    "crontab",
    "gpg --edit-key x",
    "cp -i a b",
    "docker image prune",
    "conda install numpy",
    "zypper in x",
    "dnf install x",
    "pacman -Syu",
    "strace -p 1",
    "inotifywait -m .",
    "pm2 monit",
    "gitui",
    "glances",
    "iftop",
    "yarn init",
    "bun init",
    "npm init vite",
    "gh repo create",
    "gh pr merge 1",
    "iostat -x 1",
    "sar 1",
    "nvidia-smi -l 1",
    "k9s",
    "lazydocker",
    "ncdu",
    "lynx example.com",
    "pwsh",
    "ksh -i",
    "redis-cli --ldb --eval x.lua",
    "redis-cli --stat",
    "redis-cli subscribe ch",
    "duckdb x.db",
    "clickhouse client",
    "cqlsh",
    "psql -W -c x",
    "gcloud auth application-default login",
    "aws sso login",
    "docker compose watch",
    "mdbook watch",
    "just dev",
    "wrangler dev",
    "ollama serve",
    "caddy file-server",
    "celery -A app beat",
    "php artisan queue:work",
    "sidekiq",
    "redis-server",
    "kubectl proxy",
    "minikube tunnel",
    "ngrok http 80",
    "npm restart",
    "jupyter notebook",
    "streamlit run app.py",
    "python manage.py createsuperuser",
    "docker compose attach web",
    "kubectl attach -it pod",
    "heroku local",
    "gcloud beta emulators datastore start",
    "bun --watch x.ts",
    "deno test --watch",
    "node --watch-path=src x.js",
    "mix test.watch",
    "stack build --file-watch",
    "dune build -w",
    "tailwindcss -i a.css -o b.css -w",
    "sass --watch a:b",
    "ptw",
    "watchexec -e py pytest",
    "entr -r make",
    "vitest bench",
    "vitest --ui",
    "vitest related src/x.ts",
    "npm run storybook",
    "npm run preview",
    "pnpm serve",
    "yarn watch",
    "bun start",
]
DOCUMENTED_WRAPPED = [
    "nix develop -c make",
    "nix-shell --run make",
    "adb shell ls",
    "chroot /mnt ls",
    "zellij ls",
    "sftp host:file .",
    "vagrant ssh -c ls",
    "gcloud compute ssh vm --command ls",
    "git commit --squash HEAD~1 -m x",
    "git commit --dry-run",
    "git notes add -m x",
    "erl -noshell -s init stop",
    "julia -e 1",
    "lua x.lua",
    "sbt test",
    "firebase deploy",
    "composer install",
    "composer init -n",
    "sam init --no-interactive",
    "cargo login abc",
    "wandb login key",
    "vault login tok",
    "karma start --single-run",
    "parcel build index.html",
    "esbuild app.ts --bundle",
    "caddy start",
    "rq worker --burst",
    "mongod --fork",
    "docker events --until 1m",
    "docker start c",
    "log show",
    "kubectl events",
    "python -m venv .venv",
    "ts-node x.ts",
    "bun x.ts",
    "emacsclient -n x",
    "code x",
    "man -w ls",
    "man -P cat ls",
    "crontab x",
    "sops -d secrets.yaml",
    "ssh-keygen -Y sign -f k -n file x",
    "gpg --batch --edit-key x",
    "passwd -S",
    "cp a b",
    "mv a b",
    "docker image prune -f",
    "conda install -y numpy",
    "zypper -n in x",
    "dnf install -y x",
    "pacman -Ss x",
    "pacman -Sy",
    "strace ls",
    "pm2 list",
    "yarn init -y",
    "bun init -y",
    "gh repo create x --private",
    "gh pr merge 1 --squash",
    "iostat",
    "iostat -x 1 5",
    "sar -u 1 3",
    "nvidia-smi",
    "fzf -f x",
    "ncdu -o r",
    "lynx -dump x",
    "pwsh -c x",
    "redis-cli --scan",
    "duckdb x.db 'select 1'",
    "clickhouse client -q 'select 1'",
    "cqlsh -e x",
    "mongosh x.js",
    "gcloud auth login --cred-file=x",
    "aws configure list",
    "docker compose ps",
    "mdbook build",
    "just build",
    "make test",
    "wrangler deploy",
    "ollama list",
    "celery -A app inspect active",
    "php artisan route:list",
    "kubectl get svc",
    "minikube start",
    "ngrok config check",
    "npm run lint",
    "python manage.py createsuperuser --noinput",
    "heroku apps",
    "bun run x.ts",
    "deno test",
    "gradle build",
    "mix test",
    "dune build",
    "tailwindcss -i a.css -o b.css",
    "vitest bench --run",
    "vitest run --ui=false",
    "npm run format",
    "pnpm lint",
    "yarn build",
    "bun install",
]


@pytest.mark.parametrize("command", DOCUMENTED_NEVER_WRAPPED)
def test_documented_never_wrapped(command):
    assert why_not_wrapped(split_words(command)) is not None


@pytest.mark.parametrize("command", DOCUMENTED_WRAPPED)
def test_documented_wrapped(command):
    assert why_not_wrapped(split_words(command)) is None


@pytest.mark.parametrize("command, expected", ROWS, ids=[command for command, _ in ROWS])
def test_why_not_wrapped(command, expected):
    assert why_not_wrapped(split_words(command)) == expected


def test_the_table_is_big_and_half_near_misses():
    assert len(ROWS) >= 150
    wrapped = sum(expected is None for _, expected in ROWS)
    assert wrapped * 2 >= len(ROWS) * 0.9, "about half the rows are near-misses that must be wrapped"
    assert len({command for command, _ in ROWS}) == len(ROWS), "no row twice"


def test_git_stash_patch():
    assert why_not_wrapped(["git", "stash", "-p"]) == "picks hunks interactively (git stash -p)"
    assert why_not_wrapped(["git", "reset", "-p"]) == "picks hunks interactively (git reset -p)"


def test_argv_is_read_as_given():
    # quoting is the shell's business: an argv word with spaces is one word
    assert why_not_wrapped(["git", "commit", "-m", "fix: tail -f"]) is None
    assert why_not_wrapped(["/usr/bin/tail", "-f", "x"]) == f"{FOLLOW} (tail -f)"
    assert why_not_wrapped(["./node_modules/.bin/vite"]) == f"{SERVER} (vite)"
    assert why_not_wrapped(("npm", "run", "dev")) == f"{SERVER} (npm run dev)"
    assert why_not_wrapped([]) is None
    assert why_not_wrapped(["FOO=1"]) is None


def test_help_and_version_end():
    for argv in (["vim", "--version"], ["top", "-h"], ["uvicorn", "--help"], ["psql", "--version"]):
        assert why_not_wrapped(argv) is None


@pytest.mark.parametrize(
    "command",
    ["psql", "sqlite3 app.db", "python", "node", "redis-cli", "mysql", "ssh host", "bash", "npm init", "apt install x"],
)
def test_stdin_supplied_ends_repls_and_prompts(command):
    assert why_not_wrapped(split_words(command)) is not None
    assert why_not_wrapped(split_words(command), stdin_supplied=True) is None


@pytest.mark.parametrize("command", ["vim x", "less x", "htop", "tail -f x", "npm run dev", "docker run -it img"])
def test_stdin_supplied_does_not_help_terminals_or_servers(command):
    assert why_not_wrapped(split_words(command), stdin_supplied=True) is not None


SCRIPTS = [
    ("cd web && npm run dev", f"{SERVER} (npm run dev)"),
    ("npm run build && npm start", f"{SERVER} (npm start)"),
    ("cd web && npm run build", None),
    ("tail -f app.log | grep ERROR", f"{FOLLOW} (tail -f)"),
    ("git log | less", "opens a pager (less)"),
    ("psql < schema.sql", None),
    ("cat schema.sql | psql", None),
    ("echo 'select 1' | sqlite3 app.db", None),
    ("sqlite3 app.db <<EOF\nselect 1;\nEOF", None),
    ("mysql <<< 'select 1'", None),
    ("yes | npm init", None),
    ("ssh host < script.sh", None),
    ("npm run dev &", "runs in the background (npm run dev &)"),
    ("while true; do curl localhost; sleep 1; done", "loops forever (while true)"),
    ("while read line; do echo $line; done < list.txt", None),
    ("for f in *.md; do vim $f; done", f"{EDITOR} (vim)"),
    ("if test -f x; then less x; fi", "opens a pager (less)"),
    ("timeout 5 bash -c 'tail -f x'", None),
    ("bash -c 'timeout 5 tail -f x; tail -f y'", f"{FOLLOW} (tail -f)"),
    ("FOO=1 bash -lc 'cd x && uv run uvicorn app:app --reload'", f"{SERVER} (uvicorn)"),
    ("git commit -m 'a && vim b'", None),
    ("docker compose up -d && docker compose logs -f", f"{FOLLOW} (docker compose logs -f)"),
    ("pytest -x tests/ 2>&1 | tail -n 50", None),
    ("", None),
]


@pytest.mark.parametrize("command, expected", SCRIPTS, ids=[c or "empty" for c, _ in SCRIPTS])
def test_why_not_wrapped_script(command, expected):
    assert why_not_wrapped_script(command) == expected


def test_fish_scripts():
    assert why_not_wrapped_script("cd web; and npm run dev", "fish") == f"{SERVER} (npm run dev)"
    assert why_not_wrapped(["fish", "-c", "tail -f x"]) == f"{FOLLOW} (tail -f)"


def test_user_patterns():
    patterns = ["make deploy*", "  ", "terraform apply*"]
    assert matches_user_pattern("make deploy prod", ["make", "deploy", "prod"], patterns) == "make deploy*"
    assert matches_user_pattern("", ["/usr/bin/make", "deploy"], patterns) == "make deploy*"
    assert matches_user_pattern("cargo run", ["cargo", "run"], patterns) is None
    assert matches_user_pattern("anything", [], ["  ", ""]) is None
    # `*` spans spaces and matches the whole text, as the Cursor hook's skip list did
    assert matches_user_pattern("npm run dev -- --port 1", ["npm", "run", "dev"], ["npm run dev*"]) == "npm run dev*"
    assert matches_user_pattern("xnpm run dev", ["xnpm", "run", "dev"], ["npm run dev*"]) is None
    assert matches_user_pattern("ls", ["ls"], ["ls"]) == "ls"
    assert matches_user_pattern("git commit -m 'a b'", ["git", "commit", "-m", "a b"], ["*'a b'"]) == "*'a b'"


def test_the_compiled_catalogue_is_current():
    """tokenjuice/shell/neverwrap/data.py is what `python -m tokenjuice.shell.neverwrap.schema` builds from the
    data files, and docs/neverwrap.schema.json what it derives from the declarations."""
    from tokenjuice.shell.neverwrap import data as neverwrap_data
    from tokenjuice.shell.neverwrap import more as neverwrap_more
    from tokenjuice.shell.neverwrap import schema as neverwrap_schema

    generic, tools = neverwrap_schema.load()
    assert len(neverwrap_data.ENTRIES) == neverwrap_schema.core_count()
    want = neverwrap_schema.compiled(generic, tools)
    have = {
        "GENERIC": marshal.loads(neverwrap_data.GENERIC),
        "INDEX": marshal.loads(neverwrap_data.INDEX),
        "PARTS": neverwrap_data.PARTS,
        "ENTRIES": [marshal.loads(entry) for entry in (*neverwrap_data.ENTRIES, *neverwrap_more.ENTRIES)],
    }
    assert have == want, "run: python -m tokenjuice.shell.neverwrap.schema"
    schema = json.loads((REPO / "docs" / "neverwrap.schema.json").read_text(encoding="utf-8"))
    assert schema == neverwrap_schema.json_schema(), "run: python -m tokenjuice.shell.neverwrap.schema"


def test_the_catalogue_examples_hold():
    from tokenjuice.shell.neverwrap import schema as neverwrap_schema

    _, tools = neverwrap_schema.load()
    assert len(neverwrap_schema.examples(tools)) >= 300
    from tokenjuice.rules import verify

    assert verify._never_wrap_problems(True) == []


def test_every_entry_has_examples():
    from tokenjuice.shell.neverwrap import schema as neverwrap_schema

    _, tools = neverwrap_schema.load()
    bare = [t.names[0] for t in tools if not t.examples and not t.names[0].endswith(":")]
    assert bare == [], "every [[tool]] shows at least one command and its decision"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('[[tool]]\nnames = ["x"]\ncases = [{ has = ["-f"] }]\n', "a case needs one decision"),
        ('[[tool]]\nnames = ["x"]\ncases = [{ hsa = ["-f"], wrap = true }]\n', "cases[0].hsa: unknown field"),
        ('[[tool]]\nnames = ["x"]\nsub = "second"\n', "tool[0].sub: expected one of"),
        ('[[tool]]\nnames = ["x"]\ncases = [{ call = "nope" }]\n', "cases[0].call: expected one of"),
        ("[[tool]]\nnames = []\n", "tool[0].names: expected at least one string"),
        ('[[tool]]\nnames = ["x"]\nglobal_values = "nope"\n', "argv.py has no options for 'nope'"),
        ('[[tool]]\nnames = ["x"]\ncases = [{ endless = "x ({tool})" }]\n', "a reason may name"),
    ],
)
def test_a_bad_catalogue_file_is_named_with_its_field(tmp_path, text, problem):
    from tokenjuice.rules.schema import RuleError
    from tokenjuice.shell.neverwrap import schema as neverwrap_schema

    (tmp_path / "core.toml").write_text('[generic]\neditors = ["vi"]\n', encoding="utf-8")
    (tmp_path / "bad.toml").write_text(text, encoding="utf-8")
    with pytest.raises(RuleError, match=r"bad\.toml") as raised:
        neverwrap_schema.load(str(tmp_path))
    assert problem in str(raised.value)


def test_import_stays_light():
    """The hook calls this on every command: stdlib only, no regex, and the long tail of rules
    is not loaded for the common commands, nor the named predicates for those that call none."""
    common = "(['git', 'status'], ['pytest', '-x'], ['ls'], ['python', 'x.py'], ['bash', '-c', 'make'])"
    loaded = modules_loaded_by(
        f"from tokenjuice.shell.neverwrap.engine import why_not_wrapped; [why_not_wrapped(a) for a in {common}]",
        setup="import tokenjuice.shell.command",
    )
    assert loaded == {
        "tokenjuice.shell.neverwrap",  # the package: a docstring and the kinds of reason
        "tokenjuice.shell.neverwrap.engine",
        "tokenjuice.shell.neverwrap.data",
    }
    loaded = modules_loaded_by(
        "from tokenjuice.shell.neverwrap.engine import why_not_wrapped; why_not_wrapped(['npm', 'run', 'dev'])",
        setup="import tokenjuice.shell.command",
    )
    assert loaded == {
        "tokenjuice.shell.neverwrap",
        "tokenjuice.shell.neverwrap.engine",
        "tokenjuice.shell.neverwrap.data",
        "tokenjuice.shell.neverwrap.predicates",  # npm run's case calls run-script
    }


def test_decisions_match_the_pin():
    """tests/data/neverwrap_oracle.json pins ~48,000 commands (the tests' strings, the docs'
    tables, every tool of the catalogue with the words its rules name) to the decisions the
    catalogue made when it was pinned (tests/tools/make_neverwrap_oracle.py)."""
    import json

    pin = json.loads((REPO / "tests" / "data" / "neverwrap_oracle.json").read_text(encoding="utf-8"))
    reasons = pin["reasons"]
    wrong = []
    for command, codes in pin["pins"].items():
        expected = [reasons[c] for c in codes] if isinstance(codes, list) else [reasons[codes]] * 5
        try:
            words = split_words(command)
        except Exception:  # noqa: BLE001 - pinned as "!" (not a command's words)
            words = None
        got = [
            why_not_wrapped_script(command),
            why_not_wrapped_script(command, waited=True),
            why_not_wrapped_script(command, "fish"),
            "!" if words is None else why_not_wrapped(words),
            "!" if words is None else why_not_wrapped(words, stdin_supplied=True),
        ]
        if got != expected:
            wrong.append((command, expected, got))
    assert not wrong, f"{len(wrong)} decisions changed, e.g. {wrong[:5]}"


def test_verify_checks_the_catalogue_and_its_examples(tmp_path, monkeypatch):
    """`tokenjuice verify` reports a never-wrap file that does not load, and an example the
    catalogue does not decide as it says."""
    from tokenjuice.rules import verify
    from tokenjuice.shell.neverwrap import schema as neverwrap_schema

    assert verify._never_wrap_problems(True) == []
    core = (REPO / "tokenjuice" / "shell" / "neverwrap" / "core.toml").read_text(encoding="utf-8")
    (tmp_path / "core.toml").write_text(
        core + '\n[[tool]]\nnames = ["zz"]\nexamples = [{ command = "zz", expect = "dev server (zz)" }]\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(neverwrap_schema, "DATA_DIR", str(tmp_path))
    messages = [p.message for p in verify._never_wrap_problems(True)]
    assert messages == ["never-wrap zz: 'zz' gives '', expected 'dev server (zz)'"]
    (tmp_path / "bad.toml").write_text('[[tool]]\nnames = ["x"]\nsub = "second"\n', encoding="utf-8")
    errors = [p.message for p in verify.verify(str(tmp_path), run_examples=False).errors]
    assert any("bad.toml" in message and "tool[0].sub" in message for message in errors)


def test_user_entries_in_the_catalogue_format():
    """A `hook.skip` entry may be a `[[tool]]` table: richer than a glob (options anywhere,
    wrappers looked through, `timeout` respected), with its reason returned."""
    docs = {
        "names": ["make"],
        "sub": "first",
        "cases": [{"sub": ["serve-docs"], "endless": "docs server (make {sub})"}],
    }
    deploy = {"names": ["./deploy.sh", "deploy.sh"], "cases": [{"lacks": ["-y", "--yes"], "terminal": "asks (deploy)"}]}
    patterns = ["make lint*", docs, deploy]
    assert matches_user_pattern("make lint x", ["make", "lint", "x"], patterns) == "make lint*"
    assert matches_user_pattern("make serve-docs", ["make", "serve-docs"], patterns) == "docs server (make serve-docs)"
    assert (
        matches_user_pattern("", ["sudo", "-u", "x", "make", "serve-docs"], patterns) == "docs server (make serve-docs)"
    )
    assert matches_user_pattern("", ["timeout", "5", "make", "serve-docs"], patterns) is None  # it ends
    assert matches_user_pattern("", ["make", "build"], patterns) is None
    assert matches_user_pattern("", ["make", "serve-docs", "--help"], patterns) is None
    assert matches_user_pattern("", ["./deploy.sh", "prod"], patterns) == "asks (deploy)"
    assert matches_user_pattern("", ["./deploy.sh", "-y", "prod"], patterns) is None
    invalid = {"names": ["make"], "cases": [{"sub": ["x"]}]}  # no decision: never matches
    assert matches_user_pattern("", ["make", "x"], [invalid]) is None


def test_user_entry_problems_name_the_field():
    from tokenjuice.shell.neverwrap.schema import user_entry_problem

    assert user_entry_problem({"names": ["make"], "cases": [{"sub": ["x"], "wrap": True}]}) is None
    assert "a case needs one decision" in user_entry_problem({"names": ["make"], "cases": [{"sub": ["x"]}]})
    assert "hook.skip: cases[0].hsa: unknown field" in user_entry_problem({"names": ["m"], "cases": [{"hsa": ["-f"]}]})
    assert "hook.skip: names: required" in user_entry_problem({"cases": []})
    assert "cannot" in user_entry_problem({"names": ["m"], "cases": [{"call": "as-tool"}]})
    assert "a reason may name" in user_entry_problem({"names": ["m"], "cases": [{"endless": "x ({tool})"}]})
    deep = {"names": ["x"]}
    for _ in range(5):
        deep = {"names": ["x"], "sub": "first", "subs": [deep]}
    assert "subs nested more than 3 deep" in user_entry_problem(deep)


def test_a_hook_skip_table_in_the_config_leaves_its_commands_alone(workdir, isolated_home):
    """Through the real Cursor hook: a [[tool]] table in `hook.skip` beside a glob; an invalid
    table is reported by `tokenjuice config` and leaves the layer's skip list out."""
    import sys

    from conftest import tokenjuice

    config = isolated_home / ".config" / "tokenjuice" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(
        '[hook]\nskip = ["make deploy*", { names = ["make"], sub = "operand", sub_values = ["-C", "-f"], '
        'cases = [{ sub = ["serve-docs"], endless = "docs server (make {sub})" }] }]\n'
    )

    def hook(command):
        payload = {"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": command}}
        done = tokenjuice(
            "cursor-pre-tool-use", "--wrap-launcher", f"{sys.executable} -m tokenjuice", input=json.dumps(payload)
        )
        assert done.returncode == 0 and b"Traceback" not in done.stderr
        return json.loads(done.stdout)

    assert hook("make serve-docs") == {}
    assert hook("make -C docs serve-docs") == {}  # options before it: a glob would need a pattern per spelling
    assert hook("make deploy prod") == {}
    assert hook("git status")["permission"] == "allow"
    config.write_text('[hook]\nskip = ["git *", { names = ["make"], cases = [{ sub = ["x"] }] }]\n')
    assert hook("git status")["permission"] == "allow"  # the invalid layer value is left out whole


def test_random_command_lines_never_raise():
    """The hook never breaks a command: 20,000 random argv made of the catalogue's own words
    (programs, subcommands, options) behind random wrappers, with and without stdin."""
    import random

    from tokenjuice.shell.neverwrap import data as neverwrap_data
    from tokenjuice.shell.neverwrap import schema as neverwrap_schema

    words = set()

    def collect(value):
        if isinstance(value, str):
            words.add(value)
        elif isinstance(value, (tuple, list)):
            for item in value:
                collect(item)
        elif isinstance(value, dict):
            for item in value.values():
                collect(item)

    for entry in neverwrap_schema.compiled(*neverwrap_schema.load())["ENTRIES"]:
        collect(entry)
    vocabulary = sorted(w for w in words if " " not in w) + ["x", "1", "--", "-", "a=b", "CI=1", "GIT_EDITOR=vim"]
    programs = [*sorted(marshal.loads(neverwrap_data.INDEX)), "python3", "bash", "pwsh", "create-x", "make", "wrangler"]
    wrappers = [[], ["sudo"], ["timeout", "5"], ["env", "A=1"], ["npx"], ["uv", "run"], ["ssh", "h"], ["nohup"]]
    rng = random.Random(24)
    for _ in range(20000):
        argv = [*rng.choice(wrappers), rng.choice(programs)] + rng.choices(vocabulary, k=rng.randint(0, 5))
        found = why_not_wrapped(argv, stdin_supplied=rng.random() < 0.3)
        assert found is None or isinstance(found, str)


def test_tokenjuice_schema_neverwrap_prints_the_schema():
    from conftest import tokenjuice

    done = tokenjuice("schema", "neverwrap")
    assert done.returncode == 0
    assert json.loads(done.stdout) == json.loads((REPO / "docs" / "neverwrap.schema.json").read_text(encoding="utf-8"))
