ln -s ../openspec/changes/foo/approval.md n.md && echo x > n.md; ln -sfn ../docs/superpowers/plans p && cp a p/x.md
ln -s a b; ln -s b c; cd c && touch d; ln -st dir e f; touch docs/superpowers/pl*ns/x.md docs/*/plans/y docs/**/z .super*/sdd/p/x
