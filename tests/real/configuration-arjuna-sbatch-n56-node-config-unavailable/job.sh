#!/bin/bash
#SBATCH -p debug
#SBATCH -N 1
#SBATCH -n 56
#SBATCH --mem=2G
#SBATCH -A marom
#SBATCH -J test

echo "Hello World!"
