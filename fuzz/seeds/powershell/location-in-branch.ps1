cd docs/superpowers/plans; if ($c) { cd /tmp }; sc a.md x
