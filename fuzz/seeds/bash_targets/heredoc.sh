cd docs && cat > superpowers/plans/x.md <<'EOF'
$(touch y)
EOF
