/* hold_excl DEVICE: opens DEVICE with O_EXCL (as a file system or md would
 * claim it), prints "held", and keeps it until killed. For the guard tests. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	int fd = open(argv[1], O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	puts("held");
	fflush(stdout);
	for (;;)
		pause();
}
