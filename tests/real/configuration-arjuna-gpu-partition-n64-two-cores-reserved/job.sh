#!/bin/bash
#                                                                                                
#SBATCH -J job_name 	        # Job name
#SBATCH -n 64 		        # Number of total cores                                                                  
#SBATCH -N 1 			# Number of nodes                                          
#SBATCH --time=01:00      	# Runtime in D-HH:MM                                                        
#SBATCH -A venkvis_gpu 		# Partition to submit to #venkvis_gpu/venkvis
#SBATCH -p gpu  	        # gpu,cpu,highmem,debug
#SBATCH -o job.sh.o%j


echo "Job started on `hostname` at `date`"
echo "Job Ended at `date`"
