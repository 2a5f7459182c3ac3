from claimledger.cli import main

main()
