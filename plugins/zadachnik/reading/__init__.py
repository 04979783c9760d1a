"""Reading a course's sources into its model: blocks, YAML, values files, course files."""
