/* tests/layer_check.c: the main of the layer_check_* programs (meson.build).
 * Each links one layer's library whole against only the layers under it;
 * the program does nothing, but it links only when no object of that layer
 * calls a function of a layer above it. */
int main(void)
{
	return 0;
}
