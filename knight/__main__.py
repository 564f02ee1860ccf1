from knight.cli import main

main()
